//! What the game's per-tick interpreter does with the discovered code: loops that never end a tick
//! (BMS-016) and jump / call table entries a register can select (BMS-005).
//!
//! `JASSeqCtrl::tickProc` (Petari) parses instructions while the track's wait timer is 0 and no
//! gate note is holding it. Only a non-zero wait (`F0`, `F1`) or a gate note (`0x00–0x7F` with
//! voice 0, `B3`) ends a tick; `finish` ends the track. A cycle of instructions with none of those
//! keeps the audio thread in that loop forever, so the game hangs.
//!
//! The analysis is conservative in one direction only: anything it cannot decide (a wait or a
//! target read from a register, jump/call tables, interrupt returns) counts as ending the tick,
//! and a call continues after the call only when the callee can return without waiting — so a
//! reported loop really never waits on the paths the file spells out.

use std::collections::HashMap;

use gcio::{Diagnostic, Reader};

use crate::flow::Class;
use crate::insn::{Body, Command, Instruction};
use crate::opcode::{WAIT, ops};
use crate::view::View;

/// Work bound of the callee fixpoint and of the straight-return queries, per instruction; when it
/// runs out they keep what they proved (fewer edges, never a false finding).
const FIXPOINT_VISITS_PER_NODE: usize = 16;
/// Most table indices checked for one register-selected table jump.
const MAX_SELECTED: u32 = 4096;

/// One reachable instruction as the tick analysis sees it.
#[derive(Debug, Default)]
struct Node {
    /// Ends the tick (or might: undecidable instructions count as waiting).
    waits: bool,
    /// Control may continue at these instructions (node indices).
    next: Vec<usize>,
    /// Callee entry of a `call` / `call_f` (node index), whose fall-through follows only when the
    /// callee can return without waiting.
    call: Option<usize>,
    /// Index of the instruction after a call.
    after_call: Option<usize>,
    /// `ret` or a conditional `ret_f`: returns to the caller.
    returns: bool,
}

/// Adds BMS-016 and register-selected BMS-005 findings for `view` to `out`.
pub(crate) fn check(view: &View<'_>, out: &mut Vec<Diagnostic>) {
    let insns: Vec<(usize, Instruction)> = view.instructions().collect();
    let index: HashMap<usize, usize> = insns
        .iter()
        .enumerate()
        .map(|(i, (o, _))| (*o, i))
        .collect();
    let at = |offset: u32| index.get(&(offset as usize)).copied();
    let mut nodes: Vec<Node> = Vec::with_capacity(insns.len());
    for (offset, insn) in &insns {
        let fall = index.get(&(offset + insn.size())).copied();
        nodes.push(node(insn, fall, &at));
    }
    let returns_free = callees_returning_without_wait(&nodes);
    let succ = |i: usize| -> Vec<usize> {
        let Some(n) = nodes.get(i) else {
            return Vec::new();
        };
        let mut s = n.next.clone();
        if let Some(c) = n.call {
            s.push(c);
            if returns_free.get(c).copied().unwrap_or(false) {
                s.extend(n.after_call);
            }
        }
        s
    };
    let entries: Vec<usize> = view.tracks().iter().filter_map(|t| at(t.entry)).collect();
    let reachable = reach(nodes.len(), &entries, &succ);
    let mut budget = nodes.len().saturating_mul(FIXPOINT_VISITS_PER_NODE);
    for scc in wait_free_cycles(&nodes, &reachable, &succ) {
        // Node indices follow file order, so the component's first node is its lowest offset.
        let Some(&(first, _)) = scc.first().and_then(|&i| insns.get(i)) else {
            continue;
        };
        let inside = |j: usize| scc.binary_search(&j).is_ok();
        // A way out: a conditional return, or any edge leaving the loop — except the call of a
        // routine that surely comes straight back without waiting.
        let exit = scc.iter().find(|&&i| {
            let Some(n) = nodes.get(i) else { return false };
            let mut through_call =
                |j: usize| n.call == Some(j) && straight_return(&nodes, j, 0, &mut budget);
            n.returns || succ(i).into_iter().any(|j| !inside(j) && !through_call(j))
        });
        out.push(match exit.and_then(|&i| insns.get(i)) {
            None => Diagnostic::error(
                "BMS-016",
                Some(first as u64),
                format!(
                    "loop of {} instructions at {first:#x} never waits: the per-tick interpreter never returns (the game hangs)",
                    scc.len()
                ),
            ),
            Some((x, _)) => Diagnostic::warning(
                "BMS-016",
                Some(first as u64),
                format!(
                    "loop of {} instructions at {first:#x} never waits; only the conditional exit at {x:#x} ends it (the game hangs if it is never taken)",
                    scc.len()
                ),
            ),
        });
    }
    for (i, (_, insn)) in insns.iter().enumerate() {
        if let Instruction::Command(c) = insn
            && matches!(c.opcode, ops::JMP_TABLE | ops::CALL_TABLE)
        {
            selected_entries(view, &insns, i, c, out);
        }
    }
}

/// The tick facts of one instruction; `fall` is the next instruction, `at` maps offsets to nodes.
fn node(insn: &Instruction, fall: Option<usize>, at: &impl Fn(u32) -> Option<usize>) -> Node {
    let mut n = Node::default();
    let c = match insn {
        Instruction::Note { gate, .. } => {
            n.waits = gate.is_some();
            n.next.extend(fall);
            return n;
        }
        Instruction::VoiceOff(_) => {
            n.next.extend(fall);
            return n;
        }
        Instruction::Command(c) => c,
    };
    let always = c.literal(0) == Some(0);
    let target = c.pointer().and_then(|(_, _, v)| at(v));
    match c.opcode {
        WAIT => n.waits = !matches!(c.body, Body::Wait(v) if v.value() == 0),
        ops::WAIT_BYTE => n.waits = c.literal(0) != Some(0),
        ops::NOTE_GATE | ops::JMP_TABLE | ops::CALL_TABLE | ops::RET_I | 0xF7 => n.waits = true,
        ops::FINISH | ops::RET => {}
        ops::RET_F => n.returns = true,
        ops::JMP | ops::JMP_F | ops::CALL | ops::CALL_F if target.is_none() => n.waits = true,
        ops::JMP => n.next.extend(target),
        ops::JMP_F => n.next.extend(target),
        ops::CALL | ops::CALL_F => {
            n.call = target;
            n.after_call = fall;
        }
        _ => {}
    }
    n.returns |= c.opcode == ops::RET;
    let falls = match c.opcode {
        ops::FINISH | ops::RET | ops::JMP | ops::JMP_TABLE => false,
        ops::RET_F | ops::JMP_F | ops::CALL_F => !always,
        ops::CALL => false,
        _ => true,
    };
    if falls {
        n.next.extend(fall);
    }
    n
}

/// Which nodes are callee entries that can reach a return through instructions that never wait
/// (nested calls count when their callee can). A fixpoint with a work bound: when the bound is hit,
/// the callees not yet proven are taken as waiting, which only drops edges (no false findings).
fn callees_returning_without_wait(nodes: &[Node]) -> Vec<bool> {
    let mut free = vec![false; nodes.len()];
    let callees: Vec<usize> = {
        let mut c: Vec<usize> = nodes.iter().filter_map(|n| n.call).collect();
        c.sort_unstable();
        c.dedup();
        c
    };
    let mut budget = nodes.len().saturating_mul(FIXPOINT_VISITS_PER_NODE);
    let mut seen = vec![usize::MAX; nodes.len()];
    let mut changed = true;
    let mut round = 0;
    while changed {
        changed = false;
        for &entry in &callees {
            if free.get(entry).copied().unwrap_or(true) {
                continue;
            }
            round += 1;
            let mut stack = vec![entry];
            let mut found = false;
            while let Some(i) = stack.pop() {
                let Some(n) = nodes.get(i) else { continue };
                if n.waits || seen.get(i) == Some(&round) {
                    continue;
                }
                if budget == 0 {
                    return free;
                }
                budget -= 1;
                if let Some(s) = seen.get_mut(i) {
                    *s = round;
                }
                if n.returns {
                    found = true;
                    break;
                }
                stack.extend(&n.next);
                if let Some(c) = n.call
                    && free.get(c).copied().unwrap_or(false)
                {
                    stack.extend(n.after_call);
                }
            }
            if found && let Some(f) = free.get_mut(entry) {
                *f = true;
                changed = true;
            }
        }
    }
    free
}

/// How deep [`straight_return`] follows nested calls.
const STRAIGHT_DEPTH: usize = 8;

/// True when the routine at `entry` surely returns without waiting: one path (no branch), no
/// waiting instruction, nested calls straight too, ending in an unconditional `ret`. Every node
/// visited costs one unit of `budget`, shared by all queries; when it runs out the answer is
/// false (the call then counts as a possible way out of a loop: a warning, never a false error).
fn straight_return(nodes: &[Node], entry: usize, depth: usize, budget: &mut usize) -> bool {
    let mut i = entry;
    loop {
        let Some(n) = nodes.get(i) else { return false };
        if *budget == 0 || n.waits {
            return false;
        }
        *budget -= 1;
        if n.returns {
            return n.next.is_empty();
        }
        let next = match (n.call, n.next.as_slice()) {
            (Some(c), [])
                if depth < STRAIGHT_DEPTH && straight_return(nodes, c, depth + 1, budget) =>
            {
                n.after_call
            }
            (None, [j]) => Some(*j),
            _ => None,
        };
        match next {
            Some(j) if j != entry => i = j,
            _ => return false,
        }
    }
}

/// Nodes reachable from `entries`.
fn reach(len: usize, entries: &[usize], succ: &impl Fn(usize) -> Vec<usize>) -> Vec<bool> {
    let mut seen = vec![false; len];
    let mut stack = entries.to_vec();
    while let Some(i) = stack.pop() {
        match seen.get_mut(i) {
            Some(s) if !*s => *s = true,
            _ => continue,
        }
        stack.extend(succ(i));
    }
    seen
}

/// Strongly connected components of the reachable, non-waiting nodes that hold a cycle (more than
/// one node, or a node that continues at itself); each sorted.
fn wait_free_cycles(
    nodes: &[Node],
    reachable: &[bool],
    succ: &impl Fn(usize) -> Vec<usize>,
) -> Vec<Vec<usize>> {
    let live = |i: usize| {
        reachable.get(i).copied().unwrap_or(false) && nodes.get(i).is_some_and(|n| !n.waits)
    };
    let edges = |i: usize| -> Vec<usize> { succ(i).into_iter().filter(|&j| live(j)).collect() };
    let mut t = Tarjan::new(nodes.len());
    for root in (0..nodes.len()).filter(|&i| live(i)) {
        t.run(root, &edges);
    }
    t.out
}

/// Iterative Tarjan (no recursion: the graph's depth is the file's instruction count).
struct Tarjan {
    order: Vec<usize>,
    low: Vec<usize>,
    on_stack: Vec<bool>,
    stack: Vec<usize>,
    frames: Vec<(usize, Vec<usize>, usize)>,
    next: usize,
    out: Vec<Vec<usize>>,
}

impl Tarjan {
    const UNSEEN: usize = usize::MAX;

    fn new(len: usize) -> Self {
        Tarjan {
            order: vec![Self::UNSEEN; len],
            low: vec![0; len],
            on_stack: vec![false; len],
            stack: Vec::new(),
            frames: Vec::new(),
            next: 0,
            out: Vec::new(),
        }
    }

    fn order(&self, v: usize) -> usize {
        self.order.get(v).copied().unwrap_or(0)
    }

    fn low(&self, v: usize) -> usize {
        self.low.get(v).copied().unwrap_or(0)
    }

    fn lower(&mut self, v: usize, to: usize) {
        if let Some(l) = self.low.get_mut(v) {
            *l = (*l).min(to);
        }
    }

    fn enter(&mut self, v: usize, edges: &impl Fn(usize) -> Vec<usize>) {
        if let Some(o) = self.order.get_mut(v) {
            *o = self.next;
        }
        if let Some(l) = self.low.get_mut(v) {
            *l = self.next;
        }
        if let Some(s) = self.on_stack.get_mut(v) {
            *s = true;
        }
        self.next += 1;
        self.stack.push(v);
        self.frames.push((v, edges(v), 0));
    }

    fn run(&mut self, root: usize, edges: &impl Fn(usize) -> Vec<usize>) {
        if self.order(root) != Self::UNSEEN {
            return;
        }
        self.enter(root, edges);
        while let Some((v, es, k)) = self.frames.last_mut() {
            let v = *v;
            if let Some(&w) = es.get(*k) {
                *k += 1;
                if self.order(w) == Self::UNSEEN {
                    self.enter(w, edges);
                } else if self.on_stack.get(w).copied().unwrap_or(false) {
                    let ow = self.order(w);
                    self.lower(v, ow);
                }
                continue;
            }
            self.frames.pop();
            let lv = self.low(v);
            if let Some(&(p, _, _)) = self.frames.last() {
                self.lower(p, lv);
            }
            if self.order(v) != lv {
                continue;
            }
            let mut scc = Vec::new();
            while let Some(w) = self.stack.pop() {
                if let Some(s) = self.on_stack.get_mut(w) {
                    *s = false;
                }
                scc.push(w);
                if w == v {
                    break;
                }
            }
            scc.sort_unstable();
            if scc.len() > 1 || edges(v).contains(&v) {
                self.out.push(scc);
            }
        }
    }
}

/// The register `reg` a jump / call table indexes with, and its possible values where the
/// straight-line code just before `at` sets it: `reg_load` (one value), `reg_imm` load, `and`
/// (0..=mask) or `rand` (0..n). Stops at a label (another path may join), a call or any other
/// register write.
fn selected_indices(
    view: &View<'_>,
    insns: &[(usize, Instruction)],
    at: usize,
    reg: u32,
) -> Option<(usize, u32, u32)> {
    let mut here = insns.get(at)?.0;
    for j in (at.saturating_sub(8)..at).rev() {
        let (offset, insn) = insns.get(j)?;
        if offset + insn.size() != here || view.flow().labels().contains(&(here as u32)) {
            return None;
        }
        here = *offset;
        let c = match insn {
            Instruction::Command(c) => c,
            _ => continue,
        };
        let (target, value) = match c.opcode {
            ops::REG_LOAD => (c.literal(0)?, (c.literal(1)?, c.literal(1)?)),
            ops::REG_IMM => {
                let (op, target, imm) = (c.literal(0)?, c.literal(1)?, c.literal(2)?);
                let range = match op {
                    0 => (imm, imm),
                    5 => (0, imm),
                    8 if imm > 0 => (0, imm - 1),
                    _ => return None,
                };
                (target, range)
            }
            op if writes_registers(op) || c.info().is_some_and(|i| i.pointer.is_some()) => {
                return None;
            }
            _ => continue,
        };
        // Every register write also writes the flag register (3), so a table indexed by it
        // takes the value of the last write, whatever its target.
        return (target == reg || reg == 3).then_some((*offset, value.0, value.1));
    }
    None
}

/// Commands that write a register (`JASSeqParser::writeReg` or the flag directly).
fn writes_registers(op: u8) -> bool {
    matches!(
        op,
        0xD0 | 0xD2 | 0xD3 | 0xD6 | 0xD7 | 0xD8 | 0xD9 | 0xDA | 0xDB | 0xDC | 0xF9
    )
}

/// BMS-005 for the entries a register-indexed table jump at `insns[at]` can select, when the code
/// before it sets the register to known values: each entry must lie in the file and point at an
/// instruction start inside it.
fn selected_entries(
    view: &View<'_>,
    insns: &[(usize, Instruction)],
    at: usize,
    c: &Command,
    out: &mut Vec<Diagnostic>,
) {
    let (Some(&reg), Some((_, _, table))) = (c.args().first(), c.pointer()) else {
        return;
    };
    let Some(offset) = insns.get(at).map(|(o, _)| *o) else {
        return;
    };
    let Some((set_at, lo, hi)) = selected_indices(view, insns, at, reg) else {
        return;
    };
    let data = view.data();
    let r = Reader::new(data);
    for k in lo..=hi.min(lo.saturating_add(MAX_SELECTED)) {
        let entry = table as usize + 3 * k as usize;
        let problem = match r.u24(entry) {
            Err(_) => format!("entry {k} at {entry:#x} lies past the end of the file"),
            Ok(v) if v as usize >= data.len() => {
                format!(
                    "entry {k} at {entry:#x} points at {v:#08x}, outside the file (size {:#x})",
                    data.len()
                )
            }
            Ok(v) if view.flow().class(v as usize) == Class::CodeTail => {
                format!(
                    "entry {k} at {entry:#x} points into the middle of an instruction ({v:#08x})"
                )
            }
            Ok(_) => continue,
        };
        out.push(Diagnostic::error(
            "BMS-005",
            Some(offset as u64),
            format!(
                "register {reg:#04x} (set at {set_at:#x}) can select table {table:#08x} {problem}"
            ),
        ));
        return;
    }
}
