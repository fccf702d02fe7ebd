//! The crate's registry contracts (`yaz0::Yaz0Format`, `yaz0::Yay0Format`): limits are honoured
//! by `parse_with` and `from_view`, and each contract detects and writes back its streams.
#![allow(clippy::unwrap_used)]

use gcio::{ErrorKind, FileFormat, Limits};
use yaz0::{Encoder, Matching, Yay0Format, Yaz0Format, build};

/// Payloads like the game's, and encoders with and without trailing bytes.
fn payloads() -> Vec<Vec<u8>> {
    vec![build::real_looking(5000), build::mixed(3000), vec![0; 100]]
}

const ENCODERS: [Encoder; 3] = [
    Encoder::Matching(Matching::Nintendo),
    Encoder::Matching(Matching::Gclib),
    Encoder::Fast,
];

/// `F` honours zero limits, detects `data`, and writes back what it parses; `from_view` checks
/// its own limits (a view parsed under the defaults does not lift them).
fn holds<F: FileFormat>(data: &[u8]) {
    gcio::check_limits::<F>(data).unwrap();
    assert_eq!(F::detect(data).unwrap().name, F::NAME);
    let m = F::parse_with(data, &Limits::default()).unwrap();
    assert_eq!(F::write(&m).unwrap(), data);
    let view = F::view_with(data, &Limits::default()).unwrap();
    let zero = Limits {
        max_elements: 0,
        ..Limits::default()
    };
    let e = F::from_view(&view, &zero).err().unwrap();
    assert!(matches!(e.kind(), ErrorKind::Limit { .. }), "{e}");
    assert_eq!(
        F::write(&F::from_view(&view, &Limits::default()).unwrap()).unwrap(),
        data
    );
}

#[test]
fn yaz0_contract_honours_limits_and_round_trips() {
    for p in payloads() {
        for enc in ENCODERS {
            let data = yaz0::encode(&p, enc);
            holds::<Yaz0Format>(&data);
            assert!(Yay0Format::detect(&data).is_none());
        }
    }
    assert!(Yaz0Format::detect(b"Yaz0 member inside a RARC.").is_none());
}

#[test]
fn yay0_contract_honours_limits_and_round_trips() {
    for p in payloads() {
        for enc in ENCODERS {
            let data = yaz0::yay0::Stream::encode(&p, enc).write();
            holds::<Yay0Format>(&data);
            assert!(Yaz0Format::detect(&data).is_none());
            assert!(Yay0Format::validate_with(&data, &Limits::default()).is_empty());
        }
    }
}
