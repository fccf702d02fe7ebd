//! Golden table for the per-tick analysis: BMS-016 (a loop the game's per-tick interpreter never
//! leaves) and BMS-005 on the table entries a register can select. Each case is a hand-assembled
//! byte stream with the findings it must give (severity and rule).

use bms::validate;
use gcio::Severity;

fn findings(data: &[u8]) -> Vec<(Severity, String)> {
    validate(data)
        .into_iter()
        .filter(|d| matches!(d.rule.as_str(), "BMS-016" | "BMS-005"))
        .map(|d| (d.severity, d.rule))
        .collect()
}

/// Findings a case must give.
type Want = &'static [(Severity, &'static str)];

const HANG: &[(Severity, &str)] = &[(Severity::Error, "BMS-016")];
const MAY_HANG: &[(Severity, &str)] = &[(Severity::Warning, "BMS-016")];
const BAD_ENTRY: &[(Severity, &str)] = &[(Severity::Error, "BMS-005")];
const NONE: &[(Severity, &str)] = &[];

#[test]
fn golden() {
    let cases: &[(&str, &[u8], Want)] = &[
        ("jump to itself", &[0xC7, 0, 0, 0], HANG),
        ("wait 16 then loop", &[0xF0, 0x10, 0xC7, 0, 0, 0], NONE),
        (
            "wait 0 does not end the tick",
            &[0xF0, 0x00, 0xC7, 0, 0, 0],
            HANG,
        ),
        (
            "over-long VLQ reads 0",
            &[0xF0, 0x81, 0x82, 0x83, 0x84, 0xC7, 0, 0, 0],
            HANG,
        ),
        ("wait_byte 0", &[0xF1, 0x00, 0xC7, 0, 0, 0], HANG),
        ("wait_byte 5", &[0xF1, 0x05, 0xC7, 0, 0, 0], NONE),
        (
            "wait_byte from a register",
            &[0x90, 0x80, 0xF1, 0x00, 0xC7, 0, 0, 0],
            NONE,
        ),
        (
            "gate note holds the tick",
            &[0x3C, 0x00, 0x64, 0x10, 0xC7, 0, 0, 0],
            NONE,
        ),
        (
            "gate note of duration 0 waits for the note",
            &[0x3C, 0x00, 0x64, 0x00, 0xC7, 0, 0, 0],
            NONE,
        ),
        (
            "voice note does not wait",
            &[0x3C, 0x01, 0x64, 0xC7, 0, 0, 0],
            HANG,
        ),
        (
            "note_gate command",
            &[0xB3, 0x00, 0x3C, 0x64, 0x00, 0x10, 0xC7, 0, 0, 0],
            NONE,
        ),
        (
            "conditional exit",
            &[0xC8, 0x01, 0, 0, 0x09, 0xC7, 0, 0, 0, 0xFF],
            MAY_HANG,
        ),
        (
            "always-taken jmp_f is a jump",
            &[0xC8, 0x00, 0, 0, 0x00],
            HANG,
        ),
        (
            "call of a routine that waits",
            &[0xC3, 0, 0, 0x08, 0xC7, 0, 0, 0, 0xF0, 0x10, 0xC5],
            NONE,
        ),
        (
            "call of a routine that returns at once",
            &[0xC3, 0, 0, 0x08, 0xC7, 0, 0, 0, 0xFE, 0xC5],
            HANG,
        ),
        (
            "routine that loops inside",
            &[0xC3, 0, 0, 0x05, 0xFF, 0xFE, 0xC7, 0, 0, 0x05],
            HANG,
        ),
        (
            "child track spinning, root fine",
            &[
                0xC1, 0x00, 0, 0, 0x0B, 0xF0, 0x10, 0xC7, 0, 0, 0x05, 0xC7, 0, 0, 0x0B,
            ],
            HANG,
        ),
        (
            "counted loop body without wait then finish",
            &[0xCB, 0, 3, 0xFE, 0xCC, 0xFF],
            NONE,
        ),
        (
            "table index loaded in range",
            &[
                0xD8, 0x00, 0x00, 0x00, 0xC9, 0x00, 0x00, 0x00, 0x0B, 0xFF, 0x00, 0x00, 0x00, 0x09,
            ],
            NONE,
        ),
        (
            "table index loaded past the table's end",
            &[
                0xD8, 0x00, 0x00, 0x05, 0xC9, 0x00, 0x00, 0x00, 0x0B, 0xFF, 0x00, 0x00, 0x00, 0x09,
            ],
            BAD_ENTRY,
        ),
        (
            "table index from rand % 3, one entry",
            &[
                0xDA, 0x08, 0x00, 0x00, 0x03, 0xCA, 0x00, 0x00, 0x00, 0x0C, 0xFF, 0x00, 0x00, 0x00,
                0x0A,
            ],
            BAD_ENTRY,
        ),
        (
            "table index unknown: the entry jumps back between load and jump",
            &[
                0xD8, 0x00, 0x00, 0x05, 0xC9, 0x00, 0x00, 0x00, 0x0E, 0xC7, 0x00, 0x00, 0x04, 0xFF,
                0x00, 0x00, 0x09,
            ],
            NONE,
        ),
    ];
    for (name, data, want) in cases {
        let want: Vec<(Severity, String)> = want.iter().map(|&(s, r)| (s, r.to_owned())).collect();
        assert_eq!(findings(data), want, "{name}");
    }
}

/// Eight routine levels, each calling the next 500 times: following every nested call would take
/// 500^8 steps; the analysis stays bounded and still finds the wait-free loop around them.
#[test]
fn nested_calls_stay_bounded() {
    const LEVELS: usize = 8;
    const CALLS: usize = 500;
    let level_size = CALLS * 4 + 1;
    let start = 8;
    let mut data = vec![0xC3, 0, 0, start as u8, 0xC7, 0, 0, 0];
    for level in 0..LEVELS {
        let callee = start + (level + 1) * level_size;
        for _ in 0..CALLS {
            if level + 1 < LEVELS {
                data.extend_from_slice(&[
                    0xC3,
                    (callee >> 16) as u8,
                    (callee >> 8) as u8,
                    callee as u8,
                ]);
            } else {
                data.extend_from_slice(&[0xFE; 4]);
            }
        }
        data.push(0xC5);
    }
    let t = std::time::Instant::now();
    let found = validate(&data).into_iter().any(|d| d.rule == "BMS-016");
    assert!(found);
    assert!(t.elapsed().as_secs() < 20, "{:?}", t.elapsed());
}
