//! Pokémon Colosseum / XD model containers (`.pkx`): the crate's contract (`pkx::Format`:
//! detection by PKX-001, naming `pkx-xd` or `pkx-colosseum`, parse, write) presented with `info`,
//! survey facts, `check` (with `-o kind=pokemon|trainer`) and the embedded DAT as the one member,
//! so `survey` descends PKX → DAT. `convert x.pkx x.json` writes the metadata (header only, with
//! names); `convert x.json x.pkx --dat model.dat` builds a file around a DAT, and
//! `convert x.glb x.pkx [-o game=xd|colosseum] [-o kind=pokemon|trainer] [-o meta=x.json]`
//! around a glTF model imported as a DAT (`hsd_dat::import`, HAL's XD order) with the given,
//! recorded or default metadata; `convert x.pkx x.glb` exports the model with the metadata as
//! `extras.pkx`. `extract` writes
//! `model.dat` + `metadata.json`, and `pack dir x.pkx` rebuilds the file from them.

use std::fmt::Write as _;
use std::path::Path;

use gcio::{Diagnostic, Error, Result};
use pkx::{Game, ModelKind, Pkx};
use serde_json::json;

#[cfg(feature = "convert")]
use crate::format::{Conversion, Notices};
use crate::format::{
    Info, Input, Member, Options, Outputs, companion, extension, extension_of, one_file,
};
use crate::{Present, Registered};

/// The PKX container format's presentation.
pub struct PkxContainer;

/// The registry entry.
pub static ENTRY: Registered<pkx::Format, PkxContainer> = Registered::new(PkxContainer);

fn kind_option(opts: &Options) -> Result<Option<ModelKind>> {
    match opts.get("kind").map(String::as_str) {
        None => Ok(None),
        Some("pokemon") => Ok(Some(ModelKind::Pokemon)),
        Some("trainer") => Ok(Some(ModelKind::Trainer)),
        Some(k) => Err(Error::message(format!(
            "kind={k}: expected pokemon or trainer"
        ))),
    }
}

impl Present<pkx::Format> for PkxContainer {
    fn check_options(&self) -> &'static [(&'static str, &'static str)] {
        &[(
            "kind",
            "pokemon|trainer: what the model is (PKX rules by kind)",
        )]
    }

    fn info(&self, data: &Input<'_>, p: &Pkx) -> Result<Info> {
        let v = pkx::parse_with(data, data.limits())?;
        let game = p.game();
        let kind = p.kind();
        let l = v.layout;
        let mut text = String::new();
        let _ = writeln!(
            text,
            "{} ({kind:?}): {} slots, DAT {:#x} bytes at {:#x}, GPT1 {:#x} bytes, {} trailing bytes",
            game.format_name(),
            p.entries.len(),
            l.dat_len,
            l.dat,
            l.gpt1_len,
            v.trailer().len()
        );
        if let pkx::Header::Xd(h) = &p.header {
            let _ = writeln!(
                text,
                "species {}, flags {:#04x}, head bone {}",
                h.species_id,
                h.flags.bits(),
                h.head_bone
            );
        }
        let s = p.shiny();
        let _ = writeln!(
            text,
            "particle orientation {}, shiny route {:?} brightness {:02x?}",
            p.particle_orientation(),
            s.route,
            s.brightness
        );
        for t in p.triggers().iter().filter(|t| t.active) {
            let name = pkx::names::TRIGGERS.get(t.index).copied().unwrap_or("?");
            let _ = writeln!(text, "trigger {name}: anim {}", t.anim_index);
        }
        for (i, e) in p.entries.iter().enumerate() {
            let subs: Vec<String> = e
                .used()
                .iter()
                .map(|s| format!("{}:{}", s.motion_type, s.anim_index))
                .collect();
            let _ = writeln!(
                text,
                "  {i:2} {:<16} {} type {} subs [{}] frames {:?}",
                kind.slot_name(game, i),
                if e.is_active(game) {
                    "active "
                } else {
                    "padding"
                },
                e.anim_type.0,
                subs.join(" "),
                e.timing.frames()
            );
        }
        #[cfg(feature = "json")]
        let json = {
            let mut meta = serde_json::to_value(pkx::json::Meta::from_pkx(p))
                .map_err(|e| Error::message(e.to_string()))?;
            if let Some(m) = meta.as_object_mut() {
                m.insert(
                    "layout".into(),
                    json!({"dat_offset": l.dat, "dat_size": l.dat_len, "gpt1_offset": l.gpt1,
                        "gpt1_size": l.gpt1_len, "entries_offset": l.entries,
                        "trailer_size": v.trailer().len()}),
                );
            }
            meta
        };
        #[cfg(not(feature = "json"))]
        let json = ();
        Ok(Info { text, json })
    }

    /// The PKX-* rules, with the model kind of `-o kind=pokemon|trainer` when given (PKX-008
    /// depends on it) instead of the one inferred from the slots.
    fn check(&self, data: &Input<'_>, opts: &Options) -> Result<Vec<Diagnostic>> {
        let p = data.parsed::<Pkx>()?;
        Ok(match kind_option(opts)? {
            Some(k) => pkx::validate_model_as(p, k),
            None => pkx::validate_model(p),
        })
    }

    fn members(&self, data: &Input<'_>) -> Result<Vec<Member>> {
        let v = pkx::parse_with(data, data.limits())?;
        Ok(vec![Member {
            name: "model.dat".into(),
            data: data.share(v.dat()),
        }])
    }

    #[cfg(feature = "convert")]
    /// `x.pkx x.json`: the metadata; `x.pkx x.glb`: the model with its metadata ([`export`]);
    /// `x.json x.pkx`: a file built around the DAT given as the `dat` companion
    /// ([`Companions`]); `x.glb x.pkx`: an import ([`import`]).
    fn convert_noting(
        &self,
        job: &Conversion<'_>,
        notices: &mut Notices,
    ) -> Result<Option<Outputs>> {
        let (input, from, to, files, limits) =
            (job.input, job.from, job.to, job.companions, job.limits);
        let out = match (extension_of(from).as_str(), extension_of(to).as_str()) {
            (_, "json") if pkx::detect(input).is_some() => {
                pkx::json::to_string(&Pkx::parse_with(input, limits)?).into_bytes()
            }
            ("glb" | "gltf", "pkx") => import(job, notices)?,
            (_, "glb") if pkx::detect(input).is_some() => return export(job).map(Some),
            ("json", "pkx") => {
                let dat = companion(files, "dat").ok_or_else(|| {
                    Error::message("building a .pkx from JSON needs --dat model.dat")
                })?;
                let s = std::str::from_utf8(input)
                    .map_err(|e| Error::message(format!("JSON is not UTF-8: {e}")))?;
                pkx::json::from_str(s, dat.to_vec())?.write()?
            }
            _ => return Ok(None),
        };
        Ok(Some(one_file(to, out)))
    }

    /// `dat`: the DAT a `.pkx` is built around (`convert x.json x.pkx --dat model.dat`);
    /// `meta`: the metadata a glTF import is put in (`convert x.glb x.pkx -o meta=x.json`).
    fn companions(&self) -> &'static [&'static str] {
        &["dat", "meta"]
    }

    #[cfg(feature = "convert")]
    /// `model.dat` and `metadata.json`: what `pack` (and `convert --dat`) rebuilds from.
    fn extract(&self, data: &[u8]) -> Result<Option<crate::Outputs>> {
        if pkx::game(data).is_none() {
            return Ok(None);
        }
        let p = Pkx::parse(data)?;
        Ok(Some(vec![
            ("model.dat".to_owned(), p.dat.clone()),
            (
                "metadata.json".to_owned(),
                pkx::json::to_string(&p).into_bytes(),
            ),
        ]))
    }

    #[cfg(feature = "convert")]
    /// A `.pkx` from the folder's `metadata.json` and `model.dat`.
    fn pack(&self, folder: &crate::Folder, out: &Path, _opts: &Options) -> Result<Option<Vec<u8>>> {
        if extension(out) != "pkx" {
            return Ok(None);
        }
        let read = |name: &str| {
            folder
                .files
                .get(name)
                .ok_or_else(|| Error::message(format!("{name}: not in the folder")))
        };
        let meta = read("metadata.json")?;
        let s = std::str::from_utf8(meta)
            .map_err(|e| Error::message(format!("metadata.json is not UTF-8: {e}")))?;
        pkx::json::from_str(s, read("model.dat")?.clone())?
            .write()
            .map(Some)
    }

    fn facts(&self, _data: &Input<'_>, p: &Pkx) -> Vec<(String, u64)> {
        let game = p.game();
        let g = match game {
            Game::Xd => "xd",
            Game::Colosseum => "colosseum",
        };
        let mut f = vec![
            (format!("game {g}"), 1),
            (format!("{g} kind {:?}", p.kind()), 1),
            (format!("{g} slot count {}", p.entries.len()), 1),
            (format!("{g} gpt1 present={}", !p.gpt1.is_empty()), 1),
            (format!("{g} trailer bytes {}", p.trailer.len()), 1),
        ];
        for (i, e) in p.entries.iter().enumerate() {
            let state = if e.is_active(game) {
                "active"
            } else {
                "padding"
            };
            f.push((format!("{g} slot {i} {state}"), 1));
            for s in e.used() {
                let real = if s.is_active(game) { "real" } else { "padding" };
                f.push((format!("{g} motion_type {} ({real})", s.motion_type), 1));
            }
            f.push((format!("{g} terminator {}", e.terminator), 1));
            f.push((format!("{g} anim_type {}", e.anim_type.0), 1));
            if e.is_active(game) && e.timing.first_is_zero() {
                f.push((format!("{g} active slot with timing_1 0"), 1));
            }
            let minus = e.body_map.iter().filter(|&&b| b == -1).count() as u64;
            f.push((format!("{g} body-map -1 entries"), minus));
        }
        for t in p.triggers() {
            f.push((format!("{g} trigger {} active={}", t.index, t.active), 1));
        }
        f
    }

    #[cfg(feature = "test-support")]
    fn samples(&self) -> Vec<(String, Vec<u8>)> {
        pkx::build::samples().unwrap_or_default()
    }
}

/// The `-o game=` value, if given.
#[cfg(feature = "convert")]
fn game_option(opts: &Options) -> Result<Option<Game>> {
    match opts.get("game").map(String::as_str) {
        None => Ok(None),
        Some("xd") => Ok(Some(Game::Xd)),
        Some("colosseum") => Ok(Some(Game::Colosseum)),
        Some(other) => Err(Error::message(format!(
            "unknown game {other:?} (xd, colosseum)"
        ))),
    }
}

/// Key of the PKX metadata in the glTF document's `extras` (beside `hsd`).
#[cfg(feature = "convert")]
const EXTRAS_KEY: &str = "pkx";

/// `convert x.pkx x.glb`: the embedded model ([`super::hsd_dat::export_scene`]) with the
/// metadata (`convert x.pkx x.json`'s document) as the glTF document's `extras.pkx`, so an
/// import of the glb builds the same header and slots.
#[cfg(feature = "convert")]
fn export(job: &Conversion<'_>) -> Result<Outputs> {
    let p = Pkx::parse_with(job.input, job.limits)?;
    let mut scene = super::hsd_dat::export_scene(&p.dat, job.limits)?;
    let meta = serde_json::to_value(pkx::json::Meta::from_pkx(&p))
        .map_err(|e| Error::message(e.to_string()))?;
    let mut extras = match scene.extras.take() {
        Some(serde_json::Value::Object(o)) => o,
        Some(v) => serde_json::Map::from_iter([("value".to_owned(), v)]),
        None => serde_json::Map::new(),
    };
    extras.insert(EXTRAS_KEY.into(), meta);
    scene.extras = Some(serde_json::Value::Object(extras));
    crate::export::scene_files(&scene, job.to, &crate::format::file_stem(job.from))
}

/// `convert model.glb model.pkx [-o game=xd|colosseum] [-o kind=pokemon|trainer]
/// [-o meta=metadata.json]`: the model imported as a DAT in HAL's Colosseum/XD order
/// ([`hsd_dat::import`]: its animations become the ModelSet's list, which the slots index)
/// inside a container whose metadata is, first found: the `meta` file (what
/// `convert x.pkx x.json` writes; its game must be `-o game`'s), the glb's `extras.pkx` (our
/// export of a `.pkx`; body map and head bone follow the joints to their new indices, `-o game`
/// converts the header), or defaults the game accepts derived from the node and animation names
/// ([`pkx::defaults`]; `-o game` default xd, `-o kind` default pokemon). A model without
/// animations gets a still one, `Idle`, for the idle slot. The output is read back and an
/// output with validator errors (under `-o kind`'s rules when given) fails with them.
#[cfg(feature = "convert")]
fn import(job: &Conversion<'_>, notices: &mut Notices) -> Result<Vec<u8>> {
    crate::format::check_option_keys(job.opts, &["meta", "game", "kind"], "glTF to PKX")?;
    let want = game_option(job.opts)?;
    let kind = kind_option(job.opts)?;
    let mut scene = crate::format::read_scene(job, notices)?;
    if scene.clips.is_empty() {
        scene.clips.push(still_clip(&scene)?);
        notices.push(format!(
            "{}: no animation; a still one (Idle) plays in the idle slot",
            job.from
        ));
    }
    let imported = hsd_dat::import::import(&scene, &hsd_dat::import::ImportOptions::default())?;
    super::hsd_dat::import_notices(job, &scene, &imported, notices);
    let recorded = scene
        .extras
        .as_ref()
        .and_then(|x| x.get(EXTRAS_KEY))
        .cloned();
    let p = if let Some(meta) = companion(job.companions, "meta") {
        let meta = std::str::from_utf8(meta)
            .map_err(|e| Error::message(format!("metadata JSON is not UTF-8: {e}")))?;
        let p = pkx::json::from_str(meta, imported.bytes)?;
        if let Some(g) = want.filter(|&g| g != p.game()) {
            return Err(Error::message(format!(
                "-o game={} but the metadata is for {}",
                g.format_name(),
                p.game().format_name()
            )));
        }
        p
    } else if let Some(meta) = recorded {
        let meta: pkx::json::Meta = serde_json::from_value(meta)
            .map_err(|e| Error::message(format!("extras.pkx of the glTF document: {e}")))?;
        let mut p = meta.to_pkx(imported.bytes)?;
        p.map_bones(&imported.node_joints);
        match want {
            Some(g) if g != p.game() => p.to_game(g),
            _ => p,
        }
    } else {
        let joints = hsd_dat::parse(&imported.bytes)?.graph().joints.len();
        let mut names = pkx::ModelNames {
            joints: vec![String::new(); joints],
            anims: scene
                .clips
                .iter()
                .map(|c| (c.name.clone(), clip_frames(c)))
                .collect(),
        };
        for (node, &j) in scene.nodes.iter().zip(&imported.node_joints) {
            if let Some(n) = names.joints.get_mut(j) {
                n.clone_from(&node.name);
            }
        }
        let kind = kind.unwrap_or(ModelKind::Pokemon);
        Pkx::with_defaults(want.unwrap_or(Game::Xd), kind, &names, imported.bytes)
    };
    let bytes = p.write()?;
    let back = Pkx::parse(&bytes)?;
    let findings = match kind {
        Some(k) => pkx::validate_model_as(&back, k),
        None => pkx::validate_model(&back),
    };
    let errors: Vec<String> = findings
        .iter()
        .filter(|d| d.severity == gcio::Severity::Error)
        .map(ToString::to_string)
        .collect();
    if !errors.is_empty() {
        return Err(Error::message(format!(
            "the imported .pkx has validator errors:\n{}",
            errors.join("\n")
        )));
    }
    Ok(bytes)
}

/// Length of `clip` in frames at 60 per second (its last node key), as the import samples it.
#[cfg(feature = "convert")]
fn clip_frames(clip: &gx::scene::Clip) -> f32 {
    clip.channels
        .iter()
        .filter(|c| !matches!(c.target, gx::scene::Target::Pointer(_)))
        .flat_map(|c| c.times.last().copied())
        .fold(0.0f32, f32::max)
        * 60.0
}

/// A one-second animation `Idle` holding node 0 at its rest translation.
#[cfg(feature = "convert")]
fn still_clip(scene: &gx::scene::Scene) -> Result<gx::scene::Clip> {
    let node = scene.nodes.first().ok_or_else(|| {
        Error::message("a .pkx needs an animation for its idle slot, and the model has no node")
    })?;
    let t = [node.local[0][3], node.local[1][3], node.local[2][3]];
    Ok(gx::scene::Clip {
        name: "Idle".into(),
        channels: vec![gx::scene::Channel {
            node: 0,
            target: gx::scene::Target::Translation,
            interpolation: gx::scene::Interpolation::Linear,
            times: vec![0.0, 1.0],
            values: [t, t].concat(),
        }],
        extras: None,
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;
    use crate::Companions;
    use crate::Format;
    use crate::formats::Ask;

    fn sample(name: &str) -> Vec<u8> {
        pkx::build::samples()
            .unwrap()
            .into_iter()
            .find(|(n, _)| n == name)
            .unwrap()
            .1
    }

    #[test]
    fn detects_both_games_and_rejects_near_misses() {
        let xd = sample("xd-pokemon.pkx");
        let colo = sample("colosseum-pokemon.pkx");
        assert_eq!(ENTRY.detect(&xd, "a").unwrap().format, "pkx-xd");
        assert_eq!(ENTRY.detect(&colo, "a").unwrap().format, "pkx-colosseum");
        let mut bad = xd.clone();
        bad[0x1B] = 0x0D; // type id
        assert!(ENTRY.detect(&bad, "a.pkx").is_none());
        let mut bad = colo.clone();
        bad[0x0B] = 18; // anim count
        assert!(ENTRY.detect(&bad, "a.pkx").is_none());
        assert!(ENTRY.detect(&xd[..0x100], "a.pkx").is_none());
        assert!(ENTRY.detect(b"", "a.pkx").is_none());
    }

    #[test]
    fn info_check_roundtrip_members_facts() {
        let b = sample("xd-pokemon.pkx");
        let info = ENTRY.info_of(&b).unwrap();
        assert!(
            info.text.contains("pkx-xd (Pokemon): 17 slots"),
            "{}",
            info.text
        );
        #[cfg(feature = "json")]
        assert_eq!(info.json["species_id"], 359);
        assert_eq!(ENTRY.roundtrip_of(&b).unwrap(), b.clone().into());
        assert!(ENTRY.check_of(&b, &Options::new()).unwrap().is_empty());
        let broken = sample("broken/colosseum-timing-zero.pkx");
        let rules: Vec<String> = ENTRY
            .check_of(&broken, &Options::new())
            .unwrap()
            .into_iter()
            .map(|d| d.rule)
            .collect();
        assert_eq!(rules, vec!["PKX-007"]);
        let trainer = sample("colosseum-trainer.pkx");
        assert!(
            ENTRY
                .check_of(&trainer, &Options::new())
                .unwrap()
                .is_empty()
        );
        let as_pokemon = Options::from([("kind".to_owned(), "pokemon".to_owned())]);
        assert!(
            ENTRY
                .check_of(&trainer, &as_pokemon)
                .unwrap()
                .iter()
                .all(|d| d.rule == "PKX-008")
        );
        let m = ENTRY.members_of(&b).unwrap();
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].name, "model.dat");
        assert!(hsd_dat::sniff(&m[0].data));
        let facts = ENTRY.facts_of(&b);
        assert!(facts.iter().any(|(k, _)| k == "xd motion_type 2 (real)"));
        assert!(facts.iter().any(|(k, _)| k == "game xd"));
    }

    #[test]
    fn survey_descends_into_the_dat() {
        let b = sample("colosseum-pokemon.pkx");
        let o = crate::open_with(&b, &crate::OpenOptions::named("x.pkx")).unwrap();
        assert_eq!(o.format(), "pkx-colosseum");
        let m = o.members().unwrap();
        let formats: Vec<&str> = m.iter().map(|e| e.format()).collect();
        assert_eq!(formats, vec!["hsd-dat"]);
        assert_eq!(m[0].name(), "model.dat");
    }

    #[test]
    #[cfg(feature = "convert")]
    fn convert_json_and_back_with_a_dat() {
        let (opts, none) = (Options::new(), Companions::new());
        for name in ["xd-pokemon.pkx", "colosseum-pokemon.pkx", "xd-trainer.pkx"] {
            let b = sample(name);
            let json = ENTRY.convert(&Conversion {
                input: &b,
                from: name,
                to: "x.json",
                opts: &opts,
                companions: &none,
                limits: &gcio::Limits::default(),
            });
            let [(json_name, text)] = &json.unwrap().unwrap()[..] else {
                panic!("one file")
            };
            assert_eq!(json_name, "x.json");
            let dat = ENTRY.members_of(&b).unwrap()[0].data.to_vec();
            let files = Companions::from([("dat:model.dat".to_owned(), dat)]);
            let built = ENTRY.convert(&Conversion {
                input: text,
                from: "x.json",
                to: "y.pkx",
                opts: &opts,
                companions: &files,
                limits: &gcio::Limits::default(),
            });
            assert_eq!(built.unwrap(), Some(one_file("y.pkx", b.clone())), "{name}");
            let again = ENTRY.convert(&Conversion {
                input: &b,
                from: "y.pkx",
                to: "y.json",
                opts: &opts,
                companions: &none,
                limits: &gcio::Limits::default(),
            });
            assert_eq!(
                again.unwrap(),
                Some(one_file("y.json", text.clone())),
                "{name}: json -> pkx -> json"
            );
            assert!(
                ENTRY
                    .convert(&Conversion {
                        input: text,
                        from: "x.json",
                        to: "y.pkx",
                        opts: &opts,
                        companions: &none,
                        limits: &gcio::Limits::default()
                    })
                    .is_err()
            );
        }
        assert!(matches!(
            ENTRY.convert(&Conversion {
                input: b"{}",
                from: "a.json",
                to: "a.bin",
                opts: &opts,
                companions: &none,
                limits: &gcio::Limits::default()
            }),
            Ok(None)
        ));
        let b = sample("colosseum-pokemon.pkx");
        let files = ENTRY.extract(&b).unwrap().unwrap();
        assert_eq!(files.len(), 2);
        let folder = crate::Folder {
            files: files.into_iter().collect(),
            dirs: Vec::new(),
        };
        let out = Path::new("z.pkx");
        assert_eq!(
            ENTRY.pack(&folder, out, &Options::new()).unwrap().unwrap(),
            b
        );
        assert!(
            ENTRY
                .pack(&folder, Path::new("z.arc"), &Options::new())
                .unwrap()
                .is_none()
        );
        assert!(ENTRY.extract(b"not a pkx").unwrap().is_none());
    }
}
