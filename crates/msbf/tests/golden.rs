#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
//! The golden tables drive read and write tests in both byte orders.

use gcio::Endian;
use msbf::build::FlowBuilder;
use msbf::golden::{LABELS, LITTLE_FILE, NODES};
use msbf::raw::RawNode;
use msbf::{LabelTable, Msbf, Node, label_hash};
use zerocopy::FromBytes;

fn swap16(b: &[u8; 12]) -> [u8; 12] {
    let mut out = *b;
    for p in out.chunks_mut(2) {
        p.swap(0, 1);
    }
    out
}

fn write_node(n: &Node, e: Endian) -> Vec<u8> {
    let (kind, args) = n.to_raw();
    let mut w = gcio::Writer::new();
    w.u16_at(kind, e);
    for a in args {
        w.u16_at(a, e);
    }
    w.into_vec()
}

#[test]
fn nodes_read_and_write_in_both_orders() {
    for (node, be) in NODES {
        for (e, bytes) in [(Endian::Big, *be), (Endian::Little, swap16(be))] {
            let raw = RawNode::ref_from_bytes(&bytes).unwrap();
            let (kind, args) = raw.decode(e);
            assert_eq!(Node::from_raw(kind, args), *node, "{e:?} {bytes:02x?}");
            assert_eq!(write_node(node, e), bytes, "{node:?}");
        }
    }
}

#[test]
fn label_hashes_and_buckets() {
    let t = LabelTable::default();
    for &(name, hash, bucket) in LABELS {
        assert_eq!(label_hash(name.as_bytes()), hash, "{name}");
        assert_eq!(t.bucket_of(name.as_bytes()), Some(bucket), "{name}");
    }
}

fn little_model() -> Msbf {
    let mut b = FlowBuilder::new();
    let e = b.entry("A");
    let m = b.message(7);
    b.then(e, m);
    let mut m = b.build();
    m.endian = Endian::Little;
    let labels = m.labels_mut().unwrap();
    *labels = LabelTable::new(1);
    labels.insert("A", 0);
    m
}

#[test]
fn little_endian_file_reads_and_writes() {
    assert_eq!(LITTLE_FILE.len(), 0x80);
    let m = Msbf::parse(LITTLE_FILE).unwrap();
    assert_eq!(m, little_model());
    assert_eq!(little_model().write().unwrap(), LITTLE_FILE);
    let v = msbf::parse(LITTLE_FILE).unwrap();
    assert_eq!(
        (v.endian, v.version, v.section_count, v.file_size_field),
        (Endian::Little, 3, 2, 0x80)
    );
    let f = v.flow().unwrap().unwrap();
    assert_eq!(f.node(1), Some(Node::message(7, msbf::END)));
    assert_eq!(v.labels().unwrap().unwrap().find(b"A"), Some(0));
    assert_eq!(v.labels().unwrap().unwrap().find(b"B"), None);
    // Only the byte order differs from the big-endian SMG2 form.
    let diags: Vec<String> = msbf::validate_model(&m)
        .into_iter()
        .map(|d| d.rule)
        .collect();
    assert_eq!(diags, ["MSBF-001", "MSBF-015"]);
}
