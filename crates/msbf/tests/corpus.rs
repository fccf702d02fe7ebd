#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
//! The public corpus (`../shared/corpus/msbf`), when present: byte-exact round trips, the
//! expectation files, and the builders reproducing pymsb's bytes.

use std::path::PathBuf;

use msbf::{Msbf, Node, build};
use serde_json::Value;

fn corpus() -> Option<PathBuf> {
    gcio::corpus::dir(env!("CARGO_MANIFEST_DIR"), "msbf", "msbf corpus")
        .and_then(|p| p.parent().map(PathBuf::from))
}

fn samples() -> Vec<(String, Vec<u8>, Value)> {
    let Some(root) = corpus() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for e in std::fs::read_dir(root.join("msbf")).unwrap() {
        let path = e.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let expect = root.join("expect/msbf").join(format!("{name}.json"));
        let expect: Value =
            serde_json::from_str(&std::fs::read_to_string(expect).unwrap()).unwrap();
        out.push((name, std::fs::read(&path).unwrap(), expect));
    }
    out
}

#[test]
fn corpus_round_trips_and_matches_expectations() {
    for (name, data, exp) in samples() {
        let m = Msbf::parse(&data).unwrap();
        assert_eq!(m.write().unwrap(), data, "{name}");
        assert_eq!(
            m.raw_parts(),
            Vec::<String>::new(),
            "{name}: every section typed"
        );
        assert_eq!(
            Msbf::from_json(&m.to_json()).unwrap().write().unwrap(),
            data,
            "{name} via JSON"
        );
        assert!(
            msbf::validate_model(&m).is_empty(),
            "{name}: {:?}",
            msbf::validate_model(&m)
        );

        let flow = m.flow().unwrap();
        let nodes = exp["nodes"].as_array().unwrap();
        assert_eq!(flow.nodes.len(), nodes.len(), "{name}");
        for (i, (n, e)) in flow.nodes.iter().zip(nodes).enumerate() {
            let (kind, args) = n.to_raw();
            assert_eq!(
                u64::from(kind),
                e["type"].as_u64().unwrap(),
                "{name} node {i}"
            );
            let want: Vec<u64> = e["args"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a.as_u64().unwrap())
                .collect();
            assert_eq!(args.map(u64::from).to_vec(), want, "{name} node {i}");
            assert_eq!(n.kind().name(), e["type_name"].as_str(), "{name} node {i}");
            let next: Vec<Option<u64>> = flow.edges(i).map(|e| Some(u64::from(e.to))).collect();
            let mut want = vec![e["next"].as_u64()];
            if let Some(v) = e.get("next_else") {
                want.push(v.as_u64());
            }
            let want: Vec<Option<u64>> = want.into_iter().filter(Option::is_some).collect();
            assert_eq!(next, want, "{name} node {i} successors");
            match n {
                Node::Condition {
                    condition, param, ..
                } => {
                    assert_eq!(
                        condition.name(),
                        e["condition_name"].as_str(),
                        "{name} node {i}"
                    );
                    if let Some(y) = e.get("yesno_name") {
                        assert_eq!(msbf::names::YesNo(*param).name(), y.as_str());
                    }
                }
                Node::Event { event, .. } => {
                    assert_eq!(event.name(), e["event_name"].as_str(), "{name} node {i}")
                }
                _ => {}
            }
        }
        let branches: Vec<u64> = exp["branch_list"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect();
        assert_eq!(
            flow.branches
                .iter()
                .map(|&b| u64::from(b))
                .collect::<Vec<_>>(),
            branches
        );

        let labels = m.labels().unwrap();
        assert_eq!(
            labels.buckets.len() as u64,
            exp["layout"]["fen1_bucket_count"].as_u64().unwrap()
        );
        for f in exp["flowcharts"].as_array().unwrap() {
            let label = f["label"].as_str().unwrap();
            assert_eq!(
                u64::from(labels.get(label.as_bytes()).unwrap()),
                f["entry_node"].as_u64().unwrap()
            );
            let bucket = exp["label_buckets"][label].as_u64().unwrap();
            assert_eq!(labels.bucket_of(label.as_bytes()).unwrap() as u64, bucket);
        }
        let counts = &exp["counts"];
        let count =
            |k: msbf::names::NodeType| flow.nodes.iter().filter(|n| n.kind() == k).count() as u64;
        assert_eq!(flow.nodes.len() as u64, counts["nodes"].as_u64().unwrap());
        assert_eq!(
            m.entries().len() as u64,
            counts["flowcharts"].as_u64().unwrap()
        );
        assert_eq!(
            count(msbf::names::NodeType::MESSAGE),
            counts["messages"].as_u64().unwrap()
        );
        assert_eq!(
            count(msbf::names::NodeType::CONDITION),
            counts["conditions"].as_u64().unwrap()
        );
        assert_eq!(
            count(msbf::names::NodeType::EVENT),
            counts["events"].as_u64().unwrap()
        );
        for (node, label) in exp["labels_by_node"].as_object().unwrap() {
            let e = m
                .entries()
                .into_iter()
                .find(|e| e.label == label.as_str().unwrap().as_bytes())
                .unwrap();
            assert_eq!(e.node.to_string(), *node);
        }
        let v = msbf::parse(&data).unwrap();
        let lv = v.labels().unwrap().unwrap();
        for b in exp["layout"]["fen1_nonempty_buckets"].as_array().unwrap() {
            let (count, offset) = lv.bucket(b["bucket"].as_u64().unwrap() as usize).unwrap();
            assert_eq!(u64::from(count), b["label_count"].as_u64().unwrap());
            assert_eq!(u64::from(offset), b["offset"].as_u64().unwrap());
        }
        assert_eq!(
            (0..lv.buckets.len())
                .filter(|&b| lv.bucket(b).unwrap().0 > 0)
                .count(),
            exp["layout"]["fen1_nonempty_buckets"]
                .as_array()
                .unwrap()
                .len()
        );
        assert_eq!(
            v.file_size_field as u64,
            exp["layout"]["file_size"].as_u64().unwrap()
        );
        assert_eq!(
            u64::from(v.section_count),
            exp["layout"]["section_count"].as_u64().unwrap()
        );
        assert_eq!(
            u64::from(v.version),
            exp["layout"]["version"].as_u64().unwrap()
        );
        let secs: Vec<_> = v.sections().map(Result::unwrap).collect();
        for (s, e) in secs
            .iter()
            .zip(exp["layout"]["sections"].as_array().unwrap())
        {
            assert_eq!(s.offset as u64, e["offset"].as_u64().unwrap());
            assert_eq!(u64::from(s.size_field), e["size"].as_u64().unwrap());
            assert_eq!(s.padding.len() as u64, e["padding"].as_u64().unwrap());
        }
    }
}

#[test]
fn builders_reproduce_pymsb_bytes() {
    for (name, data, _) in samples() {
        let built = match name.as_str() {
            "pymsb-kinopiobank-yesno.msbf" => build::npc_yes_no(),
            "pymsb-switch-event.msbf" => build::switch_check(),
            _ => continue,
        };
        assert_eq!(built.write().unwrap(), data, "{name}");
    }
}
