#![allow(clippy::unwrap_used, clippy::indexing_slicing)]
//! Samples validate clean and round-trip; each broken variant fires exactly its rules.

use msbf::build::{self, FlowBuilder};
use msbf::names::{ConditionType, EventType, NodeType, YesNo};
use msbf::{CheckOptions, END, Msbf, Node};

fn rules(m: &Msbf) -> Vec<String> {
    rules_with(m, &CheckOptions::default())
}

fn rules_with(m: &Msbf, o: &CheckOptions) -> Vec<String> {
    let mut r: Vec<String> = msbf::validate_model_for(m, o)
        .into_iter()
        .map(|d| d.rule)
        .collect();
    r.sort();
    r.dedup();
    r
}

/// Writes, re-parses and checks the findings survive the trip (validators run on parsed files).
fn reparsed(m: &Msbf) -> Msbf {
    let bytes = m.write().unwrap();
    let back = Msbf::parse(&bytes).unwrap();
    assert_eq!(back.write().unwrap(), bytes);
    back
}

#[test]
fn samples_round_trip_in_binary_and_json_and_validate_clean() {
    let samples = build::samples();
    assert_eq!(samples.len(), 4);
    for (name, bytes) in samples {
        let m = Msbf::parse(&bytes).unwrap();
        assert_eq!(m.write().unwrap(), bytes, "{name}");
        let json = m.to_json();
        let back = Msbf::from_json(&json).unwrap();
        assert_eq!(back, m, "{name}");
        assert_eq!(back.write().unwrap(), bytes, "{name}");
        assert_eq!(back.to_json(), json, "{name}");
        let r = rules(&m);
        if name.ends_with("-le.msbf") {
            assert_eq!(r, ["MSBF-001"], "{name}");
        } else {
            assert!(r.is_empty(), "{name}: {:?}", msbf::validate_model(&m));
        }
    }
}

fn flow_mut(m: &mut Msbf) -> &mut msbf::Flow {
    m.flow_mut().unwrap()
}

#[test]
fn yes_no_without_a_message_fires_msbf_010() {
    let mut m = build::npc_yes_no();
    // Node 1 is the message before the YesNo; make it an event with the same next.
    flow_mut(&mut m).nodes[1] = Node::event(EventType::FORWARD, 0, 2);
    assert_eq!(rules(&reparsed(&m)), ["MSBF-010"]);
    // An entry straight into a YesNo crashes too (the skipped message becomes dead: MSBF-019).
    let mut m = build::npc_yes_no();
    *flow_mut(&mut m).nodes[0].next_mut().unwrap() = 2;
    assert_eq!(rules(&reparsed(&m)), ["MSBF-010", "MSBF-019"]);
}

#[test]
fn branch_index_out_of_range_or_odd_fires_msbf_009() {
    for bad in [4u16, 1, 0xFFFF] {
        let mut m = build::npc_yes_no();
        if let Node::Condition { branch, .. } = &mut flow_mut(&mut m).nodes[9] {
            *branch = bad;
        }
        assert_eq!(rules(&reparsed(&m)), ["MSBF-009"], "branch {bad}");
    }
}

#[test]
fn dangling_next_fires_msbf_007() {
    let mut m = build::npc_yes_no();
    *flow_mut(&mut m).nodes[12].next_mut().unwrap() = 99;
    assert_eq!(rules(&reparsed(&m)), ["MSBF-007"]);
    let mut m = build::switch_check();
    flow_mut(&mut m).branches[3] = 13;
    assert_eq!(rules(&reparsed(&m)), ["MSBF-007"]);
}

#[test]
fn graph_rules() {
    // An extra node nobody reaches.
    let mut m = build::shop();
    flow_mut(&mut m).nodes.push(Node::message(9, END));
    assert_eq!(rules(&reparsed(&m)), ["MSBF-019"]);
    // A loop without a message: AnimeFunc goes back to the SW_B check (its message is cut off).
    let mut m = build::switch_check();
    *flow_mut(&mut m).nodes[8].next_mut().unwrap() = 7;
    assert_eq!(rules(&reparsed(&m)), ["MSBF-019", "MSBF-020"]);
    assert_eq!(m.flow().unwrap().cycles(), [vec![7, 8]]);
    // A loop through a message is a normal "ask again" flow.
    let mut m = build::switch_check();
    *flow_mut(&mut m).nodes[5].next_mut().unwrap() = 3;
    assert!(rules(&m).is_empty());
}

#[test]
fn label_rules() {
    // A label in the wrong bucket.
    let mut m = build::npc_yes_no();
    let t = m.labels_mut().unwrap();
    let l = t.buckets[13].pop().unwrap();
    t.buckets[0].push(l);
    assert_eq!(rules(&reparsed(&m)), ["MSBF-014"]);
    // A label naming a message: that message is not an entry, and entry 6 loses its label.
    let mut m = build::npc_yes_no();
    m.labels_mut().unwrap().buckets[14][0].node = 7;
    assert_eq!(rules(&reparsed(&m)), ["MSBF-006", "MSBF-019"]);
    // Another bucket count than SMG2's.
    let mut m = build::npc_yes_no();
    let t = m.labels_mut().unwrap();
    let labels: Vec<_> = t.iter().map(|(_, l)| l.clone()).collect();
    *t = msbf::LabelTable::new(101);
    for l in labels {
        t.insert(l.name, l.node);
    }
    assert_eq!(rules(&reparsed(&m)), ["MSBF-015"]);
}

#[test]
fn value_rules() {
    let mut m = build::shop();
    let n = flow_mut(&mut m).nodes.len() - 1;
    flow_mut(&mut m).nodes[n] = Node::Other {
        kind: NodeType(9),
        args: [0; 5],
    };
    assert_eq!(rules(&reparsed(&m)), ["MSBF-005"]);

    let mut m = build::npc_yes_no();
    if let Node::Condition { param, arg1, .. } = &mut flow_mut(&mut m).nodes[2] {
        *param = 0x40;
        *arg1 = 0;
    }
    assert_eq!(rules(&reparsed(&m)), ["MSBF-008", "MSBF-011"]);

    let mut m = build::npc_yes_no();
    if let Node::Event { event, .. } = &mut flow_mut(&mut m).nodes[3] {
        *event = EventType(0x20);
    }
    assert_eq!(rules(&reparsed(&m)), ["MSBF-011"]);

    let mut m = build::npc_yes_no();
    m.version = 2;
    assert_eq!(rules(&reparsed(&m)), ["MSBF-016"]);
    m.sections.reverse();
    assert_eq!(rules(&reparsed(&m)), ["MSBF-016", "MSBF-018"]);
}

#[test]
fn options_check_branch_functions_and_message_ids() {
    let m = build::shop();
    let shop = CheckOptions {
        object: Some("TicoShop".into()),
        message_count: Some(7),
    };
    assert!(rules_with(&m, &shop).is_empty());
    let few = CheckOptions {
        message_count: Some(5),
        ..CheckOptions::default()
    };
    assert_eq!(rules_with(&m, &few), ["MSBF-013"]);
    let mut m = build::shop();
    if let Node::Condition { param, .. } = &mut flow_mut(&mut m).nodes[4] {
        *param = 3;
    }
    assert_eq!(rules_with(&m, &shop), ["MSBF-012"]);
    let moc = CheckOptions {
        object: Some("Moc".into()),
        ..CheckOptions::default()
    };
    assert!(rules_with(&m, &CheckOptions::default()).is_empty());
    assert_eq!(rules_with(&m, &moc), ["MSBF-012"]);
}

#[test]
fn framing_quirks_survive_and_are_reported() {
    let bytes = build::npc_yes_no().write().unwrap();
    // Zero padding instead of 0xAB (FLW2 data ends at 0xDC, 4 padding bytes).
    let mut zero = bytes.clone();
    zero[0xDC..0xE0].fill(0);
    let m = Msbf::parse(&zero).unwrap();
    assert_eq!(m.write().unwrap(), zero);
    assert_eq!(rules(&m), ["MSBF-003"]);
    // Hack.io's FEN1 size counts its header (C-21).
    let mut hackio = bytes.clone();
    let size = u32::from_be_bytes(hackio[0xE4..0xE8].try_into().unwrap()) + 0x10;
    hackio[0xE4..0xE8].copy_from_slice(&size.to_be_bytes());
    let m = Msbf::parse(&hackio).unwrap();
    assert!(m.sections[1].frame.size_includes_header);
    assert_eq!(m.write().unwrap(), hackio);
    assert_eq!(rules(&m), ["MSBF-004"]);
    // A stale file length, header padding, bytes after the end, an unknown section.
    let mut m = build::npc_yes_no();
    m.header_padding[3] = 1;
    m.trailing = vec![1, 2, 3];
    m.sections
        .push(msbf::Section::new(msbf::SectionKind::Other {
            magic: *b"REF1",
            data: vec![9; 5],
        }));
    let out = m.write().unwrap();
    let back = Msbf::parse(&out).unwrap();
    assert_eq!(back, m);
    assert_eq!(rules(&back), ["MSBF-018"]);
    let mut stale = out.clone();
    stale[0x15] ^= 1;
    let back = Msbf::parse(&stale).unwrap();
    assert_eq!(back.write().unwrap(), stale);
    assert_eq!(rules(&back), ["MSBF-002", "MSBF-018"]);
}

#[test]
fn unusual_label_layout_is_kept_until_edited() {
    let bytes = build::npc_yes_no().write().unwrap();
    // Empty buckets pointing at 0 instead of the running offset.
    let mut odd = bytes.clone();
    let buckets = 0xF0 + 4;
    odd[buckets + 4..buckets + 8].copy_from_slice(&0u32.to_be_bytes());
    let m = Msbf::parse(&odd).unwrap();
    assert!(m.labels().unwrap().raw.is_some());
    assert_eq!(m.write().unwrap(), odd);
    assert_eq!(Msbf::from_json(&m.to_json()).unwrap().write().unwrap(), odd);
    // After an edit the table is written the usual way.
    let mut m = m;
    m.labels_mut().unwrap().buckets[14][0].node = 0;
    let mut want = build::npc_yes_no();
    want.labels_mut().unwrap().buckets[14][0].node = 0;
    assert_eq!(m.write().unwrap(), want.write().unwrap());
    assert_ne!(want.write().unwrap(), bytes);
}

#[test]
fn graph_walks_and_entries() {
    let m = build::npc_yes_no();
    let e = m.entries();
    assert_eq!(e.len(), 2);
    assert_eq!(
        (e[0].label, e[0].node),
        (&b"MarioFaceShipGalaxy_KinopioBank000"[..], 0)
    );
    let limits = gcio::Limits::default();
    assert_eq!(
        m.flow_of(b"MarioFaceShipGalaxy_KinopioBank001", &limits)
            .unwrap()
            .unwrap(),
        [6, 7, 8, 9, 10, 12, 11]
    );
    assert!(m.flow_of(b"nope", &limits).is_none());
    let f = m.flow().unwrap();
    assert_eq!(f.successors(2).collect::<Vec<_>>(), [3, 4]);
    assert_eq!(f.predecessors()[5], [3]);
    let dot = m.to_dot();
    assert!(dot.contains("n2 -> n3 [label=\"yes\"]"), "{dot}");
    assert!(dot.contains("2: YesNo KinopioBank"));
    assert!(dot.contains("label0 -> n0"));
}

#[test]
fn json_names_values_and_accepts_numbers() {
    let m = build::npc_yes_no();
    let json = m.to_json();
    assert!(json.contains("\"condition\": \"YesNo\""), "{json}");
    assert!(json.contains("\"event\": \"EventFuncNoAdvance\""));
    let numeric = json.replace("\"condition\": \"YesNo\"", "\"condition\": 0");
    assert_eq!(Msbf::from_json(&numeric).unwrap(), m);
    let unknown = json.replace("\"condition\": \"YesNo\"", "\"condition\": \"Maybe\"");
    let err = Msbf::from_json(&unknown).unwrap_err().to_string();
    assert!(err.contains("unknown ConditionType \"Maybe\""), "{err}");
    let mut odd = m.clone();
    if let Node::Event { event, .. } = &mut odd.flow_mut().unwrap().nodes[3] {
        *event = EventType(0x77);
    }
    assert!(odd.to_json().contains("\"event\": 119"));
    assert_eq!(Msbf::from_json(&odd.to_json()).unwrap(), odd);
}

#[test]
fn builder_links_and_names() {
    let mut b = FlowBuilder::new();
    let e = b.entry("X");
    let q = b.condition(ConditionType::PLAYER_LUIGI, 0);
    b.then(e, q).then(q, e).branch(e, 1, 1);
    let m = b.build();
    assert_eq!(m.flow().unwrap().branches, [END, END]);
    assert_eq!(YesNo(0x0D).name(), Some("KinopioBank"));
    assert_eq!(ConditionType(0x99).to_string(), "0x99");
    assert_eq!(EventType::SW_A_ON.to_string(), "SW_A_On");
}
