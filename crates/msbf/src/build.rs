//! Builders for realistic flows, used by tests, benches and `samples/`.
//!
//! [`FlowBuilder`] adds nodes in the order given (so a caller can reproduce any tool's node
//! order) and links them by index; [`FlowBuilder::build`] makes an SMG2 file: big endian,
//! version 3, FLW2 then FEN1 with 59 buckets.

use crate::model::{END, Flow, LabelTable, Msbf, Node, SMG2_BUCKETS, Section, SectionKind};
use crate::names::{ConditionType, EventType, YesNo};

/// Assembles a flow node by node.
#[derive(Debug, Clone, Default)]
pub struct FlowBuilder {
    flow: Flow,
    labels: Vec<(Vec<u8>, u16)>,
}

impl FlowBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        FlowBuilder::default()
    }

    fn add(&mut self, n: Node) -> u16 {
        self.flow.nodes.push(n);
        u16::try_from(self.flow.nodes.len() - 1).unwrap_or(END)
    }

    /// An entry node named `label` (its FEN1 label), not yet linked.
    pub fn entry(&mut self, label: &str) -> u16 {
        let i = self.add(Node::entry(END));
        self.labels.push((label.as_bytes().to_vec(), i));
        i
    }

    /// A message node showing MSBT entry `message_id`.
    pub fn message(&mut self, message_id: u16) -> u16 {
        self.add(Node::message(message_id, END))
    }

    /// An event node.
    pub fn event(&mut self, event: EventType, param: u16) -> u16 {
        self.add(Node::event(event, param, END))
    }

    /// A condition node with fresh branch-list entries (both ends until [`FlowBuilder::branch`]).
    pub fn condition(&mut self, condition: ConditionType, param: u16) -> u16 {
        let b = u16::try_from(self.flow.branches.len()).unwrap_or(END);
        self.flow.branches.extend([END, END]);
        self.add(Node::condition(condition, param, b))
    }

    /// A YesNo condition showing dialog `kind`.
    pub fn yes_no(&mut self, kind: YesNo) -> u16 {
        self.condition(ConditionType::YES_NO, kind.0)
    }

    /// Sets the next node of an entry, message or event node (ignored for other nodes).
    pub fn then(&mut self, from: u16, to: u16) -> &mut Self {
        if let Some(next) = self
            .flow
            .nodes
            .get_mut(usize::from(from))
            .and_then(Node::next_mut)
        {
            *next = to;
        }
        self
    }

    /// Links a chain: each node's next is the following one.
    pub fn chain(&mut self, nodes: &[u16]) -> &mut Self {
        for w in nodes.windows(2) {
            if let [a, b] = *w {
                self.then(a, b);
            }
        }
        self
    }

    /// Sets a condition's targets when true and when false ([`END`] = stop).
    pub fn branch(&mut self, cond: u16, if_true: u16, if_false: u16) -> &mut Self {
        if let Some(Node::Condition { branch, .. }) = self.flow.nodes.get(usize::from(cond)) {
            let b = usize::from(*branch);
            for (j, t) in [(b, if_true), (b + 1, if_false)] {
                if let Some(slot) = self.flow.branches.get_mut(j) {
                    *slot = t;
                }
            }
        }
        self
    }

    /// The finished SMG2 file.
    pub fn build(&self) -> Msbf {
        let mut labels = LabelTable::new(SMG2_BUCKETS);
        for (name, node) in &self.labels {
            labels.insert(name.clone(), u32::from(*node));
        }
        let mut m = Msbf::new();
        m.sections = vec![
            Section::new(SectionKind::Flow(self.flow.clone())),
            Section::new(SectionKind::Labels(labels)),
        ];
        m
    }
}

/// Banktoad: message → YesNo (KinopioBank); OK runs EventFunc and a message, No thanks a message.
/// A second label leads in with two messages, and No thanks ends the talk with an event. Nodes are
/// in pymsb's breadth-first order, so this is byte for byte the corpus file
/// `pymsb-kinopiobank-yesno.msbf`.
pub fn npc_yes_no() -> Msbf {
    let mut b = FlowBuilder::new();
    let e = b.entry("MarioFaceShipGalaxy_KinopioBank000");
    let m0 = b.message(0);
    let q = b.yes_no(YesNo::KINOPIO_BANK);
    let ev = b.event(EventType::EVENT_FUNC, 0);
    let no = b.message(2);
    let m1 = b.message(1);
    b.chain(&[e, m0, q]).branch(q, ev, no).then(ev, m1);
    let e = b.entry("MarioFaceShipGalaxy_KinopioBank001");
    let m3 = b.message(3);
    let m4 = b.message(4);
    let q = b.yes_no(YesNo::KINOPIO_BANK);
    let ev = b.event(EventType::EVENT_FUNC, 1);
    let end = b.event(EventType::EVENT_FUNC_END, 0);
    let m5 = b.message(5);
    b.chain(&[e, m3, m4, q]).branch(q, ev, end).then(ev, m5);
    b.build()
}

/// Whittle: one flow checks SW_A (on: a message; off: message, turn SW_A on, message), one checks
/// SW_B (on: AnimeFunc 1, message; off: message, turn SW_B on, message). Byte for byte the corpus
/// file `pymsb-switch-event.msbf`.
pub fn switch_check() -> Msbf {
    let mut b = FlowBuilder::new();
    let e = b.entry("BigTree2Galaxy_Moc000");
    let q = b.condition(ConditionType::SW_A, 0);
    let on = b.message(2);
    let off = b.message(0);
    let ev = b.event(EventType::SW_A_ON, 0);
    let m1 = b.message(1);
    b.then(e, q).branch(q, on, off).chain(&[off, ev, m1]);
    let e = b.entry("BigTree2Galaxy_Moc001");
    let q = b.condition(ConditionType::SW_B, 0);
    let anim = b.event(EventType::ANIME_FUNC, 1);
    let m4 = b.message(4);
    let m3 = b.message(3);
    let ev = b.event(EventType::SW_B_ON, 0);
    let m5 = b.message(5);
    b.then(e, q)
        .branch(q, anim, m4)
        .then(anim, m3)
        .chain(&[m4, ev, m5]);
    b.build()
}

/// Luma shop: several labels. A greeting flow hides the talk pointer, asks TicoShopExchange, checks
/// the star bits with the shop's BranchFunc (enough: event, message; not enough: message), then
/// shows the pointer again; a second flow shows one message if a Power Star appeared and another
/// otherwise; a third asks TicoShopWhich and ends the talk on either answer.
pub fn shop() -> Msbf {
    let mut b = FlowBuilder::new();
    let e = b.entry("TicoShop_Greeting");
    let hide = b.event(EventType::HIDE_POINTER, 0);
    let hello = b.message(0);
    let ask = b.yes_no(YesNo::TICO_SHOP_EXCHANGE);
    let funds = b.condition(ConditionType::BRANCH_FUNC, 0);
    let bye = b.message(1);
    let buy = b.event(EventType::EVENT_FUNC, 0);
    let poor = b.message(2);
    let thanks = b.message(3);
    let show = b.event(EventType::SHOW_POINTER, 0);
    b.chain(&[e, hide, hello, ask]).branch(ask, funds, bye);
    b.branch(funds, buy, poor)
        .chain(&[buy, thanks, show])
        .then(poor, show)
        .then(bye, show);
    let e = b.entry("TicoShop_Star");
    let star = b.condition(ConditionType::POWER_STAR_APPEARED, 0);
    let seen = b.message(4);
    let not_yet = b.message(5);
    b.then(e, star).branch(star, seen, not_yet);
    let e = b.entry("TicoShop_Which");
    let m = b.message(6);
    let which = b.yes_no(YesNo::TICO_SHOP_WHICH);
    let life = b.event(EventType::EVENT_FUNC_END, 1);
    let one_up = b.event(EventType::EVENT_FUNC_END, 2);
    b.chain(&[e, m, which]).branch(which, life, one_up);
    b.build()
}

/// Sample files for `samples/msbf/`: the three flows, and the shop in little endian.
pub fn samples() -> Vec<(String, Vec<u8>)> {
    let mut le = shop();
    le.endian = gcio::Endian::Little;
    [
        ("npc-yesno.msbf", npc_yes_no()),
        ("switch-check.msbf", switch_check()),
        ("shop-labels.msbf", shop()),
        ("shop-labels-le.msbf", le),
    ]
    .into_iter()
    .filter_map(|(name, m)| m.write().ok().map(|b| (name.to_owned(), b)))
    .collect()
}
