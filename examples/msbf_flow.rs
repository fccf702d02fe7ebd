//! Builds an NPC conversation with a yes/no choice, writes it, reads it back, prints each flow
//! and the validator's findings, then breaks it the way the game would crash on and shows the
//! findings again. With a path argument, it prints the flows of that `.msbf` file instead.
//!
//! `cargo run --example msbf_flow --features msbf [FILE.msbf]`

use gcformats::msbf::build::FlowBuilder;
use gcformats::msbf::names::{EventType, YesNo};
use gcformats::msbf::{Msbf, Node, describe};

fn print_flows(m: &Msbf) -> Result<(), gcformats::gcio::Error> {
    let Some(flow) = m.flow() else { return Ok(()) };
    for e in m.entries() {
        println!("{}:", String::from_utf8_lossy(e.label));
        for i in flow.walk(e.node as usize, &Default::default())? {
            let to: Vec<String> = flow.edges(i).map(|e| e.to.to_string()).collect();
            if let Some(n) = flow.nodes.get(i) {
                println!(
                    "  {:<28} -> {}",
                    describe(i, n),
                    if to.is_empty() {
                        "end".into()
                    } else {
                        to.join(" | ")
                    }
                );
            }
        }
    }
    for d in gcformats::msbf::validate_model(m) {
        println!("{d}");
    }
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    if let Some(path) = std::env::args().nth(1) {
        let m = Msbf::parse(&std::fs::read(path)?)?;
        print_flows(&m)?;
        return Ok(());
    }
    let mut b = FlowBuilder::new();
    let entry = b.entry("IslandFleetGalaxy_Dreamer000");
    let hello = b.message(0);
    let ask = b.yes_no(YesNo::DREAMER);
    let open = b.event(EventType::SW_A_ON, 0);
    let thanks = b.message(1);
    let bye = b.message(2);
    b.chain(&[entry, hello, ask])
        .branch(ask, open, bye)
        .then(open, thanks);
    let bytes = b.build().write()?;
    let mut m = Msbf::parse(&bytes)?;
    assert_eq!(m.write()?, bytes);
    println!("{} bytes, byte-exact round trip", bytes.len());
    print_flows(&m)?;

    println!("-- the greeting replaced by an event (the YesNo box needs a message before it):");
    if let Some(n) = m
        .flow_mut()
        .and_then(|f| f.nodes.get_mut(usize::from(hello)))
    {
        *n = Node::event(EventType::FORWARD, 0, ask);
    }
    print_flows(&m)?;
    Ok(())
}
