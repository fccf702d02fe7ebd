//! Padding as layout facts: a gap is read back as the alignments Nintendo's tools applied (each
//! restarting the fill sentence), and written again from them.

use gcio::{Writer, padding_for};

use crate::model::{Fill, Gap};

/// Alignments a run of padding may stand for, smallest first.
const ALIGNS: [usize; 5] = [2, 4, 8, 16, 32];

/// The alignment that pads `pos` by exactly `len` bytes (smallest first).
fn align_for(pos: usize, len: usize) -> Option<u8> {
    ALIGNS
        .iter()
        .find(|&&a| padding_for(pos, a) == len)
        .map(|&a| a as u8)
}

/// The largest alignment (≤ 32) `pos` already has: what an empty gap records, so edits that move
/// the table keep it at least that aligned.
fn natural(pos: usize) -> u8 {
    ALIGNS
        .iter()
        .rev()
        .find(|&&a| pos.is_multiple_of(a))
        .map_or(1, |&a| a as u8)
}

/// Reads the gap `bytes` that starts at chunk-relative `pos` as alignments, or keeps it raw.
pub fn classify(pos: usize, bytes: &[u8], fill: Fill) -> Gap {
    if bytes.is_empty() {
        return Gap::Align(vec![natural(pos)]);
    }
    let pattern = fill.pattern();
    let mut aligns = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let rest = bytes.get(i..).unwrap_or_default();
        let run = if pattern.is_empty() {
            rest.iter().take_while(|&&b| b == 0).count()
        } else {
            rest.iter().zip(pattern).take_while(|(a, b)| a == b).count()
        };
        match (run, align_for(pos + i, run)) {
            (1.., Some(a)) => aligns.push(a),
            _ => return stale_or_raw(pos, bytes),
        }
        i += run;
    }
    Gap::Align(aligns)
}

/// Bytes that are not the fill: stale padding when their length is one alignment's, else raw.
fn stale_or_raw(pos: usize, bytes: &[u8]) -> Gap {
    match align_for(pos, bytes.len()) {
        Some(align) => Gap::Stale {
            align,
            bytes: bytes.to_vec(),
        },
        None => Gap::Raw(bytes.to_vec()),
    }
}

/// As [`classify`] for the gap that ends the chunk: its last alignment is the largest that fits,
/// since J3D chunks end on 32 bytes.
pub fn classify_end(pos: usize, bytes: &[u8], fill: Fill) -> Gap {
    let mut gap = classify(pos, bytes, fill);
    if let Gap::Align(list) = &mut gap
        && let Some(last) = list.last_mut()
    {
        let len = last_run(bytes, fill);
        let start = pos + bytes.len() - len;
        if let Some(&a) = ALIGNS
            .iter()
            .rev()
            .find(|&&a| padding_for(start, a) == len && (len > 0 || start.is_multiple_of(a)))
        {
            *last = a as u8;
        }
    }
    gap
}

/// The end gap of a file stored without its last `missing` bytes: the stored `tail` continued by
/// the fill, when that reads as alignments (then writing the gap and leaving off `missing` bytes
/// gives `tail` back); `None` when the stored bytes are no cut padding.
pub fn classify_cut_end(pos: usize, tail: &[u8], missing: usize, fill: Fill) -> Option<Gap> {
    let run = last_run(tail, fill);
    let p = fill.pattern();
    let mut full = tail.to_vec();
    full.extend((run..run + missing).map(|i| p.get(i % p.len().max(1)).copied().unwrap_or(0)));
    match classify_end(pos, &full, fill) {
        g @ Gap::Align(_) => Some(g),
        _ => None,
    }
}

/// Length of the last fill run in `bytes`.
fn last_run(bytes: &[u8], fill: Fill) -> usize {
    let p = fill.pattern();
    match p.first() {
        Some(&first) => bytes
            .iter()
            .rposition(|&b| b == first)
            .map_or(0, |i| bytes.len() - i),
        None => bytes.len(),
    }
}

/// Writes a gap.
pub fn write_gap(w: &mut Writer, chunk_start: usize, gap: &Gap, fill: Fill) {
    match gap {
        Gap::Align(list) => {
            for &a in list {
                let n = padding_for(w.position() - chunk_start, usize::from(a));
                w.bytes(&fill_bytes(fill, n));
            }
        }
        Gap::Raw(b) | Gap::Stale { bytes: b, .. } => {
            w.bytes(b);
        }
        // An overlapping table moves back instead (the writer's table loop).
        Gap::Overlap(_) | Gap::None => {}
    }
}

fn fill_bytes(fill: Fill, n: usize) -> Vec<u8> {
    let p = fill.pattern();
    if p.is_empty() {
        vec![0; n]
    } else {
        p.iter().copied().cycle().take(n).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_step_padding_is_two_alignments() {
        // A u8 table ending at 0x55: "Thi" pads to 4, then the sentence restarts up to 0x60.
        let gap = b"ThiThis is ";
        assert_eq!(classify(0x55, gap, Fill::Nintendo), Gap::Align(vec![4, 16]));
        assert_eq!(
            classify_end(0x55, gap, Fill::Nintendo),
            Gap::Align(vec![4, 32])
        );
        let mut w = Writer::new();
        w.bytes(&[0; 0x55]);
        write_gap(&mut w, 0, &Gap::Align(vec![4, 32]), Fill::Nintendo);
        assert_eq!(w.as_slice().get(0x55..), Some(&gap[..]));
        assert_eq!(
            classify(0x11, b"Tx", Fill::Nintendo),
            Gap::Raw(b"Tx".to_vec())
        );
        assert_eq!(
            classify(0x0E, b"\0\x01", Fill::Nintendo),
            Gap::Stale {
                align: 4,
                bytes: vec![0, 1]
            }
        );
        assert_eq!(classify(0x200, b"", Fill::Nintendo), Gap::Align(vec![32]));
        assert_eq!(classify(0x6aa, b"\0\0", Fill::Zero), Gap::Align(vec![4]));
    }

    #[test]
    fn cut_padding_is_completed_from_the_fill() {
        // 0x44: 28 bytes pad to 0x60; 5 stored, 23 missing.
        let full = classify_end(0x44, &fill_bytes(Fill::Nintendo, 28), Fill::Nintendo);
        assert_eq!(full, Gap::Align(vec![32]));
        assert_eq!(
            classify_cut_end(0x44, b"This ", 23, Fill::Nintendo),
            Some(full)
        );
        assert_eq!(
            classify_cut_end(0x44, b"", 28, Fill::Zero),
            Some(Gap::Align(vec![32]))
        );
        // Not the fill, or more missing than one alignment pads: no cut padding.
        assert_eq!(classify_cut_end(0x44, b"xx", 26, Fill::Nintendo), None);
        assert_eq!(classify_cut_end(0x44, b"", 60, Fill::Nintendo), None);
    }
}
