#![allow(clippy::unwrap_used)]
//! Wiimm's SZS tools: SHA-256 and length of what `wszst compress --yaz0 --compr L` (v2.42a
//! r8989, built from its source, no cache) wrote for two built payloads. Level 9 (the default)
//! is MKW-SP's loop, 1..=8 the same loop in a smaller window, 10 libyaz0's look-ahead: our
//! encoders must give those files byte for byte, and identification must name them.

use sha2::{Digest, Sha256};
use yaz0::{Encoder, Matching, Stream};

const GOLDEN: [(&str, u8, &str, usize); 12] = [
    (
        "real",
        1,
        "98f3ca8b6491790853eec3143011811d74fe164c6d210ca7d9b0696567ded43f",
        26586,
    ),
    (
        "real",
        3,
        "8609fe9df21c616b28d99af9dd341192981944e6368cf7d07ba30d53594aad2b",
        24693,
    ),
    (
        "real",
        5,
        "040c046b5ebdb3322624f3445ebf36fc0e16daad7d33a51d0201f108348ef0bc",
        23253,
    ),
    (
        "real",
        8,
        "15d935f9faf3b46b686cf57ec817ae15efd5c3709a20d3a1ed118538eb8a356e",
        19744,
    ),
    (
        "real",
        9,
        "6bb6d23c5528064288646cccb8fe8186b5fd1eeba8b5486439572b7b43f80dfd",
        17931,
    ),
    (
        "real",
        10,
        "78077f581203c9810c69d6ba72e4780412c4f13d8250d3848dfb120393ba8598",
        17433,
    ),
    (
        "mixed",
        1,
        "eb0ece25644bfdf7ddcac7f421bb775e871866ae028fdf6b007d858bb705b45a",
        34100,
    ),
    (
        "mixed",
        3,
        "4c9c3176af5b0c27a15dd1fec13ba3a3f9d6d42fcf145962b2ce0f9c1f5869f6",
        31324,
    ),
    (
        "mixed",
        5,
        "039c68afac4dee109c38b54f4e5285f1005885be1e832bca51cef4f1315180aa",
        30900,
    ),
    (
        "mixed",
        8,
        "f67fcf226c2dad8488d07be78454a72cd6dc231d8a1ed7cb59d7cc4579178714",
        27432,
    ),
    (
        "mixed",
        9,
        "1bc0a1cc84da90d806cc80b27d7c084bafd747d86b8b72d3d21f01f11f287ec9",
        25153,
    ),
    (
        "mixed",
        10,
        "25bcf70db303f228dd9610104ba49332c90f62514d1be2a3672e9bea41c50bd8",
        24628,
    ),
];

#[test]
fn wszst_levels_match_its_output() {
    let real = yaz0::build::real_looking(40_000);
    let mixed = yaz0::build::mixed(200_000);
    for (input, level, sha, len) in GOLDEN {
        let data = if input == "real" { &real } else { &mixed };
        let enc = Encoder::Matching(match level {
            9 => Matching::MkwSp,
            10 => Matching::LibYaz0,
            l => Matching::Wszst(l),
        });
        let out = yaz0::encode(data, enc);
        let hex: String = Sha256::digest(&out)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(
            (out.len(), hex.as_str()),
            (len, sha),
            "{input} level {level}"
        );
        let ids = Stream::parse(&out).unwrap().identify(data);
        assert!(ids.contains(&enc), "{input} level {level}: {ids:?}");
    }
}
