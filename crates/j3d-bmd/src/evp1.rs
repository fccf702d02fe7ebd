//! EVP1: skinning envelopes (weighted joint sets) and inverse bind matrices.

use gcio::{Context, Limits, Reader, Result, Writer};

use crate::chunk::{gap_align, header, here, off, u16_of, write_chunk};
use crate::{Pad, raw};

/// A 3×4 row-major matrix (3 rows of 4 floats).
pub use gx::mtx::Mtx34;

/// Zero-copy EVP1.
#[derive(Debug, Clone, Copy)]
pub struct Evp1View<'a> {
    r: Reader<'a>,
    h: &'a raw::Evp1Header,
    pub(crate) limits: Limits,
}

impl<'a> Evp1View<'a> {
    /// Reads the chunk `r` with the default [`Limits`].
    pub fn parse(r: Reader<'a>) -> Result<Self> {
        Self::parse_with(r, &Limits::default())
    }

    /// Reads the chunk `r`; what is read from it later (models, tables) stays within
    /// `limits`.
    pub fn parse_with(r: Reader<'a>, limits: &Limits) -> Result<Self> {
        let h = header(&r, b"EVP1").context("EVP1")?;
        Ok(Evp1View {
            r,
            h,
            limits: *limits,
        })
    }

    /// The chunk's bytes.
    pub fn reader(&self) -> Reader<'a> {
        self.r
    }

    /// The header.
    pub fn header(&self) -> &'a raw::Evp1Header {
        self.h
    }

    /// Number of envelopes.
    pub fn len(&self) -> usize {
        usize::from(self.h.count.get())
    }

    /// True when there are no envelopes.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The per-envelope pair counts.
    pub fn sizes(&self) -> Result<&'a [u8]> {
        self.r
            .bytes(off(self.h.sizes), self.len())
            .context("EVP1 > sizes")
    }

    /// Total (joint, weight) pairs.
    pub fn pair_count(&self) -> Result<usize> {
        Ok(self.sizes()?.iter().map(|&s| usize::from(s)).sum())
    }

    /// Envelope `i` as (joint, weight) pairs, without allocating. Finding the envelope's first
    /// pair sums the sizes before it (O(i)); walk every envelope with [`envelopes`](Self::envelopes).
    pub fn envelope(&self, i: usize) -> Result<impl Iterator<Item = Result<(u16, f32)>> + 'a> {
        let sizes = self.sizes()?;
        let first: usize = sizes.iter().take(i).map(|&s| usize::from(s)).sum();
        let n = usize::from(
            *sizes
                .get(i)
                .ok_or_else(|| self.r.oob(off(self.h.sizes) + i, 1))
                .context("EVP1")?,
        );
        Ok(self.pairs(first, n))
    }

    /// Every envelope in order as an iterator of its pairs (one pass over the size table).
    pub fn envelopes(
        &self,
    ) -> Result<impl Iterator<Item = impl Iterator<Item = Result<(u16, f32)>> + 'a> + 'a> {
        let sizes = self.sizes()?;
        let this = *self;
        Ok(sizes.iter().scan(0usize, move |first, &n| {
            let start = *first;
            *first += usize::from(n);
            Some(this.pairs(start, usize::from(n)))
        }))
    }

    /// Index of each envelope's first pair (one pass; bounded by the u16 envelope count).
    pub fn starts(&self) -> Result<Vec<usize>> {
        let sizes = self.sizes()?;
        Ok(sizes
            .iter()
            .scan(0usize, |acc, &n| {
                let s = *acc;
                *acc += usize::from(n);
                Some(s)
            })
            .collect())
    }

    /// `n` pairs from pair index `first`.
    pub fn pairs(
        &self,
        first: usize,
        n: usize,
    ) -> impl Iterator<Item = Result<(u16, f32)>> + use<'a> {
        let (r, j, w) = (self.r, off(self.h.joints), off(self.h.weights));
        (first..first.saturating_add(n)).map(move |k| {
            Ok((r.u16(j + 2 * k)?, r.f32(w + 4 * k)?)).with_context(|| format!("EVP1 > pair {k}"))
        })
    }

    /// Inverse bind matrix `i` (one per joint; the count is not stored, J3D-031).
    pub fn ibm(&self, i: usize) -> Result<Mtx34> {
        let base = off(self.h.ibms)
            .checked_add(i.saturating_mul(0x30))
            .ok_or_else(|| self.r.oob(usize::MAX, 0x30))?;
        let mut m = [[0.0; 4]; 3];
        for (k, v) in m.iter_mut().flatten().enumerate() {
            *v = self
                .r
                .f32(base + 4 * k)
                .with_context(|| format!("EVP1 > matrix {i}"))?;
        }
        Ok(m)
    }

    /// Whole matrices between the IBM offset and the chunk's end (0 when there is no table).
    pub fn ibm_capacity(&self) -> usize {
        match off(self.h.ibms) {
            0 => 0,
            o => self.r.len().saturating_sub(o) / 0x30,
        }
    }
}

/// One envelope.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Envelope {
    /// (JNT1 index, weight) pairs.
    pub pairs: Vec<(u16, f32)>,
}

/// Owned EVP1.
#[derive(Debug, Clone, PartialEq)]
pub struct Evp1 {
    /// The u16 at 0x0A.
    pub marker: u16,
    /// Envelopes.
    pub envelopes: Vec<Envelope>,
    /// Inverse bind matrices (as many as JNT1 joints).
    pub ibms: Vec<Mtx34>,
    /// Padding style.
    pub pad: Pad,
    /// Alignment each table starts on: sizes, joints, weights, matrices. Detected on parsing
    /// (Nintendo's tools pack the joint indices right after the sizes, even at an odd offset).
    pub aligns: [u8; 4],
}

impl Evp1 {
    /// Copies a view; the IBM count is the number of whole matrices before the chunk's end.
    pub fn from_view(v: &Evp1View<'_>) -> Result<Self> {
        let n = v.limits.check_elements(v.len() as u64, v.r.abs(8))?;
        let mut envelopes = Vec::with_capacity(n);
        if n > 0 {
            for e in v.envelopes()? {
                envelopes.push(Envelope {
                    pairs: e.collect::<Result<_>>()?,
                });
            }
        }
        let ibms = (0..v.ibm_capacity())
            .map(|i| v.ibm(i))
            .collect::<Result<_>>()?;
        Ok(Evp1 {
            marker: v.h.pad.get(),
            envelopes,
            ibms,
            pad: Pad::default(),
            aligns: Self::uniform_aligns(1),
        }
        .with_detected_aligns(v))
    }

    /// The alignments of the parsed chunk: each table's start against the previous one's end.
    fn with_detected_aligns(mut self, v: &Evp1View<'_>) -> Self {
        let h = &v.h;
        let pairs: usize = self.envelopes.iter().map(|e| e.pairs.len()).sum();
        let tables = [
            (off(h.sizes), self.envelopes.len()),
            (off(h.joints), 2 * pairs),
            (off(h.weights), 4 * pairs),
            (off(h.ibms), 0),
        ];
        if tables.iter().all(|t| t.0 == 0) {
            return self;
        }
        let mut end = size_of::<raw::Evp1Header>();
        let natural = [1, 2, 4, 4];
        for ((a, natural), (start, len)) in self.aligns.iter_mut().zip(natural).zip(tables) {
            *a = gap_align(end, start, natural, natural).unwrap_or(32);
            end = start + len;
        }
        self
    }

    /// The alignments a writer padding every table to at least `align` (beyond its natural
    /// alignment) uses.
    pub fn uniform_aligns(align: u8) -> [u8; 4] {
        [align, align.max(2), align.max(4), align.max(4)]
    }

    /// Writes the chunk: header, sizes, joints, weights and matrices, each on its alignment.
    /// An empty chunk keeps all offsets 0.
    pub fn write(&self) -> Result<Vec<u8>> {
        write_chunk(*b"EVP1", self.pad, |w: &mut Writer| {
            w.u16(u16_of(self.envelopes.len(), "envelope count")?)
                .u16(self.marker);
            let slots = [
                w.reserve_u32(),
                w.reserve_u32(),
                w.reserve_u32(),
                w.reserve_u32(),
            ];
            if self.envelopes.is_empty() && self.ibms.is_empty() {
                return Ok(());
            }
            let [s, j, wt, m] = slots;
            let [a_sizes, a_joints, a_weights, a_ibms] = self.aligns.map(usize::from);
            self.pad.align(w, a_sizes);
            here(w, s)?;
            for e in &self.envelopes {
                w.u8(u8::try_from(e.pairs.len())
                    .map_err(|_| gcio::Error::message("envelope with more than 255 joints"))?);
            }
            self.pad.align(w, a_joints);
            here(w, j)?;
            for (joint, _) in self.envelopes.iter().flat_map(|e| &e.pairs) {
                w.u16(*joint);
            }
            self.pad.align(w, a_weights);
            here(w, wt)?;
            for (_, weight) in self.envelopes.iter().flat_map(|e| &e.pairs) {
                w.f32(*weight);
            }
            self.pad.align(w, a_ibms);
            here(w, m)?;
            for v in self.ibms.iter().flatten().flatten() {
                w.f32(*v);
            }
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn golden_evp1() {
        let m = Evp1 {
            marker: 0xFFFF,
            envelopes: vec![Envelope {
                pairs: vec![(0, 0.25), (1, 0.75)],
            }],
            ibms: vec![
                [
                    [1.0, 0.0, 0.0, 0.0],
                    [0.0, 1.0, 0.0, 0.0],
                    [0.0, 0.0, 1.0, 0.0]
                ];
                2
            ],
            pad: Pad::Nintendo,
            aligns: Evp1::uniform_aligns(1),
        };
        let b = m.write().unwrap();
        // sizes @0x1C, joints @0x1E, weights @0x24, matrices @0x2C; 0x2C + 0x60 = 0x8C → 0xA0.
        assert_eq!(
            &b[0x0C..0x1C],
            &[0, 0, 0, 0x1C, 0, 0, 0, 0x1E, 0, 0, 0, 0x24, 0, 0, 0, 0x2C]
        );
        assert_eq!(&b[0x1C..0x24], &[2, b'T', 0, 0, 0, 1, b'T', b'h']);
        assert_eq!(b.len(), 0xA0);
        let v = Evp1View::parse(Reader::new(&b)).unwrap();
        assert_eq!(
            v.envelope(0).unwrap().collect::<Result<Vec<_>>>().unwrap(),
            vec![(0, 0.25), (1, 0.75)]
        );
        assert_eq!(Evp1::from_view(&v).unwrap(), m);
        let empty = Evp1 {
            envelopes: vec![],
            ibms: vec![],
            ..m
        };
        let e = empty.write().unwrap();
        assert_eq!(e.len(), 0x20);
        assert_eq!(
            Evp1::from_view(&Evp1View::parse(Reader::new(&e)).unwrap()).unwrap(),
            empty
        );
    }
}
