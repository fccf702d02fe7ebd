//! Building new archives in the retail SMG layout (RARC-024/025/026): directory nodes in BFS
//! order, entry blocks in DFS pre-order (children in authored order, then "." and ".."), the root
//! name then "." and ".." first in a deduplicated string table, identical payloads stored once,
//! data ordered MRAM → ARAM → DVD and padded to 32, IDs = entry positions.

use std::collections::{HashMap, VecDeque};

use crate::attr::{Attr, name_hash, node_type};
use crate::model::{Archive, Entry, Gap, Node, Region, Target, dir_entry};

/// A directory to pack.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Dir {
    /// Name.
    pub name: Vec<u8>,
    /// Children in authored order.
    pub children: Vec<Item>,
}

/// A directory child.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    /// A file.
    File {
        /// Name.
        name: Vec<u8>,
        /// Attributes (FILE plus a load flag; compression flags are set from the data's magic when
        /// `None`).
        attr: Option<Attr>,
        /// Bytes as stored.
        data: Vec<u8>,
        /// File ID to keep (`None`: its entry position).
        id: Option<u16>,
    },
    /// A subdirectory.
    Dir(Dir),
}

/// Options for [`pack`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PackOptions {
    /// Store names lower-cased (SMG1, RARC-027).
    pub lowercase: bool,
    /// Turn file-ID sync on (flag byte 1); IDs are entry positions either way unless given.
    pub sync_ids: bool,
}

/// The default attributes of a file: FILE | MRAM, plus COMPRESSED (and YAZ0) when the data starts
/// with a Yaz0 (Yay0) magic.
pub fn default_attr(data: &[u8]) -> Attr {
    let mut a = Attr::FILE | Attr::MRAM;
    if yaz0::is_yaz0(data) {
        a |= Attr::COMPRESSED | Attr::YAZ0;
    } else if yaz0::yay0::is_yay0(data) {
        a |= Attr::COMPRESSED;
    }
    a
}

/// Packs `root` into a new archive.
pub fn pack(root: &Dir, opts: PackOptions) -> Archive {
    let name = |n: &[u8]| {
        if opts.lowercase {
            n.to_ascii_lowercase()
        } else {
            n.to_vec()
        }
    };
    // BFS node numbering.
    let mut bfs: Vec<(&Dir, Option<usize>)> = vec![(root, None)];
    let mut node_of: HashMap<*const Dir, usize> = HashMap::new();
    node_of.insert(root as *const Dir, 0);
    let mut queue = VecDeque::from([0usize]);
    while let Some(i) = queue.pop_front() {
        let Some(&(d, _)) = bfs.get(i) else { break };
        for c in &d.children {
            if let Item::Dir(sub) = c {
                node_of.insert(sub as *const Dir, bfs.len());
                queue.push_back(bfs.len());
                bfs.push((sub, Some(i)));
            }
        }
    }
    let mut nodes: Vec<Node> = bfs
        .iter()
        .enumerate()
        .map(|(i, (d, _))| {
            let n = name(&d.name);
            Node {
                ty: if i == 0 { *b"ROOT" } else { node_type(&n) },
                hash: name_hash(&n),
                name: n,
                name_offset: u32::MAX,
                first_entry: 0,
                entry_count: (d.children.len() + 2) as u16,
            }
        })
        .collect();
    // DFS entry blocks; payloads collected per load group with dedup.
    let mut entries: Vec<Entry> = Vec::new();
    let mut payloads: Vec<(u8, &[u8])> = Vec::new();
    let mut file_payload: Vec<(usize, usize)> = Vec::new(); // (entry, payload)
    let mut stack = vec![root];
    while let Some(d) = stack.pop() {
        let me = node_of.get(&(d as *const Dir)).copied().unwrap_or(0);
        if let Some(n) = nodes.get_mut(me) {
            n.first_entry = entries.len() as u32;
        }
        for c in &d.children {
            match c {
                Item::File {
                    name: n,
                    attr,
                    data,
                    id,
                } => {
                    let n = name(n);
                    let attr = attr.unwrap_or_else(|| default_attr(data));
                    let group = attr.load_group();
                    let p = payloads
                        .iter()
                        .position(|&(g, b)| g == group && b == data.as_slice())
                        .unwrap_or_else(|| {
                            payloads.push((group, data));
                            payloads.len() - 1
                        });
                    file_payload.push((entries.len(), p));
                    entries.push(Entry {
                        id: id.unwrap_or(entries.len() as u16),
                        hash: name_hash(&n),
                        attr,
                        name: n,
                        name_offset: u32::MAX,
                        target: Target::File {
                            region: 0,
                            offset: 0,
                        },
                        size: data.len() as u32,
                        reserved: 0,
                    });
                }
                Item::Dir(sub) => {
                    let n = name(&sub.name);
                    let node = node_of.get(&(sub as *const Dir)).copied().unwrap_or(0);
                    entries.push(dir_entry(n, node as u32));
                }
            }
        }
        let parent = bfs.get(me).and_then(|b| b.1).map_or(u32::MAX, |p| p as u32);
        entries.push(dir_entry(b".".to_vec(), me as u32));
        entries.push(dir_entry(b"..".to_vec(), parent));
        let subs: Vec<&Dir> = d
            .children
            .iter()
            .filter_map(|c| if let Item::Dir(s) = c { Some(s) } else { None })
            .collect();
        stack.extend(subs.into_iter().rev());
    }
    // Regions: MRAM, then ARAM, then DVD, each in first-use order.
    let mut order: Vec<usize> = (0..payloads.len()).collect();
    order.sort_by_key(|&p| payloads.get(p).map_or(0, |x| x.0));
    let mut region_of = vec![0usize; payloads.len()];
    let mut regions = Vec::with_capacity(payloads.len());
    let mut sums = [0u32; 3];
    for (r, &p) in order.iter().enumerate() {
        if let (Some(slot), Some(&(g, b))) = (region_of.get_mut(p), payloads.get(p)) {
            *slot = r;
            let gap = vec![0; gcio::padding_for(b.len(), 32)];
            if let Some(s) = sums.get_mut(usize::from(g)) {
                *s += (b.len() + gap.len()) as u32;
            }
            regions.push(Region {
                data: b.to_vec(),
                gap,
            });
        }
    }
    for (e, p) in file_payload {
        if let Some(entry) = entries.get_mut(e) {
            entry.target = Target::File {
                region: region_of.get(p).copied().unwrap_or(0),
                offset: 0,
            };
        }
    }
    // String table: root name, ".", "..", then entry names in order, deduplicated.
    let mut pool = gcio::StringPool::new();
    let root_name = nodes.first().map(|n| n.name.clone()).unwrap_or_default();
    for s in [root_name.as_slice(), b".", b".."] {
        pool.add(s);
    }
    for e in &mut entries {
        e.name_offset = pool.add(&e.name);
    }
    for n in &mut nodes {
        n.name_offset = pool.add(&n.name);
    }
    let mut strings = pool.into_bytes();
    strings.resize(strings.len() + gcio::padding_for(strings.len(), 32), 0);
    let entry_count = entries.len();
    let [mram_size, aram_size, dvd_size] = sums;
    Archive {
        file_size: None,
        mram_size,
        aram_size,
        dvd_size,
        next_id: entry_count as u16,
        sync_ids: u8::from(opts.sync_ids),
        info_reserved: [0; 5],
        nodes,
        entries,
        strings,
        regions,
        after_nodes: Gap::default(),
        after_entries: Gap::default(),
        after_strings: Gap::default(),
        data_lead: Vec::new(),
        tail: Vec::new(),
    }
}

/// The directory tree of an archive, children in entry order, files with their stored attributes
/// and IDs: `pack(&tree(a))` rebuilds a retail-layout archive `a` byte for byte. The walk is
/// bounded by the default [`gcio::Limits`].
pub fn tree(archive: &Archive) -> gcio::Result<Dir> {
    tree_with(archive, &gcio::Limits::default())
}

/// [`tree`] with the caller's `limits` bounding the directory depth and the nodes visited.
pub fn tree_with(archive: &Archive, limits: &gcio::Limits) -> gcio::Result<Dir> {
    fn build(
        a: &Archive,
        node: usize,
        depth: u32,
        limits: &gcio::Limits,
        visited: &mut gcio::Visited,
    ) -> gcio::Result<Dir> {
        limits.check_depth(depth, 0x40)?;
        visited.visit_once(node as u64)?;
        let n = a.nodes.get(node).ok_or_else(|| {
            gcio::Error::invalid(0x40, format!("directory node {node} out of range"))
        })?;
        let first = n.first_entry as usize;
        let mut children = Vec::new();
        for i in first..first + usize::from(n.entry_count) {
            let Some(e) = a.entries.get(i) else { break };
            match e.target {
                Target::Dir(_) if e.name == b"." || e.name == b".." => {}
                Target::Dir(d) => {
                    children.push(Item::Dir(build(a, d as usize, depth + 1, limits, visited)?))
                }
                Target::File { .. } => children.push(Item::File {
                    name: e.name.clone(),
                    attr: Some(e.attr),
                    data: a.file_data(i).unwrap_or_default().to_vec(),
                    id: Some(e.id),
                }),
            }
        }
        Ok(Dir {
            name: n.name.clone(),
            children,
        })
    }
    build(archive, 0, 0, limits, &mut gcio::Visited::new(*limits))
}

/// A small retail-style stage archive tree for samples, benches and tests: BFS node order differs
/// from DFS entry order, two members share a payload, one is preloaded to ARAM and one is
/// Yaz0-compressed (Nintendo encoder).
pub fn sample_tree() -> Dir {
    let file = |name: &str, data: Vec<u8>| Item::File {
        name: name.as_bytes().to_vec(),
        attr: None,
        data,
        id: None,
    };
    let dir = |name: &str, children: Vec<Item>| {
        Item::Dir(Dir {
            name: name.as_bytes().to_vec(),
            children,
        })
    };
    let empty_layer = b"BCSV-like empty layer table\0\0\0\0\0".to_vec();
    let text: Vec<u8> = b"CameraParam: id=0 dist=1200.0 angle=15.0; "
        .iter()
        .copied()
        .cycle()
        .take(600)
        .collect();
    Dir {
        name: b"Stage".to_vec(),
        children: vec![
            dir(
                "jmp",
                vec![
                    dir(
                        "Placement",
                        vec![
                            file("ObjInfo", empty_layer.clone()),
                            file("AreaObjInfo", (0..100u8).collect()),
                        ],
                    ),
                    dir("Path", vec![file("CommonPathInfo", empty_layer)]),
                ],
            ),
            dir("camera", vec![file("CameraParam.bcam", text.clone())]),
            Item::File {
                name: b"Module.rel".to_vec(),
                attr: Some(Attr::FILE | Attr::ARAM),
                data: vec![9; 33],
                id: None,
            },
            file(
                "packed.szs",
                yaz0::encode(&text, yaz0::Encoder::Matching(yaz0::Matching::Nintendo)),
            ),
        ],
    }
}
