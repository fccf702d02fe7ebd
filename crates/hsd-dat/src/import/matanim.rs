//! Material animations: each glTF animation that drives materials — `KHR_animation_pointer`
//! channels of a material's `baseColorFactor` or its base-colour texture's
//! `KHR_texture_transform`, or our export's `extras.hsd` ([`MatAnimExtras`], also on an
//! animation without channels, which the writer keeps in the document's `extras.animations`)
//! — becomes a MatAnimJoint tree mirroring the joint tree, with a MatAnim per DObj of the
//! material's MObj. Every frame (60 per second) is resampled to the runtime's track values
//! ([`material_tracks`]); each that leaves the MObj's or TObj's rest value becomes an FObj
//! fitted within the tolerance like a joint track, image and palette indices an FObj of
//! constant keys, and an image swap a TexAnim whose image (and palette) table holds the swap's
//! images. LOD-bias, konst and TEV register tracks are kept where the TObj has the LOD or TEV
//! description the runtime writes them to (our export records both), else left out.

use std::collections::HashMap;

use gcio::Result;
use gx::scene::{Channel, Clip, Scene, Target as Pointer};
use serde_json::Value;

use super::Skeleton;
use super::anim::{Roots, kept, keys, mirror_links, roots, stored_fits, stream, write_stored};
use super::material::{Materials, Rest, images_trusted, rest};
use crate::build::Builder;
use crate::build::parts::{aobj, fobj};
use crate::extras::{self, MatAnimExtras, MaterialAnimExtras, StoredAObj, TextureAnimExtras};
use crate::flags::AObjFlags;
use crate::fobj::{Key, Op};
use crate::matanim::{TextureSrt, mobj_track, tobj_track};
use crate::model::Target;
use crate::types::{MatAnim, MatAnimJoint, TexAnim};

/// Most frames an animation is resampled at.
const MAX_FRAMES: f32 = 100_000.0;

/// JSON pointer tail of a material's base colour.
const BASE_COLOR: &str = "pbrMetallicRoughness/baseColorFactor";

/// JSON pointer tail of a material's base-colour texture transform (then `/offset`, …).
const TRANSFORM: &str = "pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform";

/// Tracks a base-colour channel carries when no extras say: diffuse and alpha.
const COLOR_TRACKS: [u8; 4] = [4, 5, 6, mobj_track::ALPHA];

/// Tracks a texture transform carries when no extras say: translation, scale, rotation Z.
const TRANSFORM_TRACKS: [u8; 5] = [2, 3, 4, 5, 8];

/// One track at every frame.
pub type Samples = (u8, Vec<f32>);

/// A material's animation as track values at every frame.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MaterialSamples {
    /// glTF material index.
    pub material: usize,
    /// MObj tracks (`HSD_A_M_*`).
    pub tracks: Vec<Samples>,
    /// Animated TObjs.
    pub textures: Vec<TextureSamples>,
    /// The AObj's flags our extras recorded.
    pub aobj_flags: Option<u32>,
    /// The AObj our extras recorded as stored.
    pub stored: Option<StoredAObj>,
}

/// A TObj's animation as track values at every frame.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TextureSamples {
    /// TObj id.
    pub id: u32,
    /// Tracks (`HSD_A_T_*`; the image swap apart).
    pub tracks: Vec<Samples>,
    /// Image swap: glTF images, and per frame the index into them drawn (empty: no swap).
    pub swap: (Vec<usize>, Vec<u32>),
    /// The AObj's flags our extras recorded.
    pub aobj_flags: Option<u32>,
    /// The AObj our extras recorded as stored.
    pub stored: Option<StoredAObj>,
}

/// The glTF animations of `scene` that drive materials, as clips: those with material
/// pointer channels or our `extras.hsd`, then the channel-less ones of the document's
/// `extras.animations` that carry ours.
pub fn material_clips(scene: &Scene) -> Vec<Clip> {
    let ours = |x: Option<&Value>| extras::read::<MatAnimExtras>(x).is_some_and(|e| e.version > 0);
    let mut out: Vec<Clip> = scene
        .clips
        .iter()
        .filter(|c| {
            ours(c.extras.as_ref()) || c.channels.iter().any(|ch| material_of(ch).is_some())
        })
        .cloned()
        .collect();
    let listed = scene
        .extras
        .as_ref()
        .and_then(|x| x.get("animations"))
        .and_then(Value::as_array);
    for a in listed.into_iter().flatten() {
        if ours(a.get("extras")) {
            out.push(Clip {
                name: a.get("name").and_then(Value::as_str).unwrap_or("").into(),
                channels: Vec::new(),
                extras: a.get("extras").cloned(),
            });
        }
    }
    out
}

/// The material a pointer channel drives and the rest of its pointer.
fn material_of(ch: &Channel) -> Option<(usize, &str)> {
    let Pointer::Pointer(p) = &ch.target else {
        return None;
    };
    let (m, tail) = p.strip_prefix("/materials/")?.split_once('/')?;
    Some((m.parse().ok()?, tail))
}

/// The channel of `clip` driving `tail` of material `m`.
fn channel<'a>(clip: &'a Clip, m: usize, tail: &str) -> Option<&'a Channel> {
    clip.channels
        .iter()
        .find(|ch| material_of(ch) == Some((m, tail)))
}

/// Frames to sample: our extras' count, else through the last key (at least 1).
fn frame_count(clip: &Clip, x: Option<&MatAnimExtras>) -> usize {
    let keyed = clip
        .channels
        .iter()
        .filter(|ch| material_of(ch).is_some())
        .filter_map(|ch| ch.times.last())
        .fold(0.0f32, |m, t| m.max(*t * 60.0))
        .round()
        .clamp(0.0, MAX_FRAMES) as usize
        + 1;
    x.map_or(keyed, |x| {
        (x.frames as usize).clamp(1, MAX_FRAMES as usize + 1)
    })
}

/// Every animated material of `clip` as runtime track values at every frame: the tracks our
/// extras list as carried by channels (all of them for a plain glTF animation: diffuse and
/// `1 − alpha` from `baseColorFactor`, translation, scale and Z rotation from the texture
/// transform, [`TextureSrt::from_gltf`]) read from the channels, the sampled ones and image
/// swaps from the extras. A material the scene lacks is skipped.
pub fn material_tracks(scene: &Scene, clip: &Clip) -> Vec<MaterialSamples> {
    // Our extras name glTF materials and images by index: used while those are still ours.
    let trusted = images_trusted(scene);
    let x =
        extras::read::<MatAnimExtras>(clip.extras.as_ref()).filter(|e| e.version > 0 && trusted);
    let n = frame_count(clip, x.as_ref());
    let mut ids: Vec<usize> = x
        .iter()
        .flat_map(|x| x.materials.iter().map(|m| m.material))
        .chain(clip.channels.iter().filter_map(|c| Some(material_of(c)?.0)))
        .collect();
    ids.dedup();
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for m in ids {
        if seen.contains(&m) {
            continue;
        }
        seen.push(m);
        let Some(r) = rest(scene, m, trusted) else {
            continue;
        };
        let recorded = x
            .as_ref()
            .and_then(|x| x.materials.iter().find(|e| e.material == m));
        out.push(material(clip, m, &r, recorded, n));
    }
    out
}

/// Sets the track `id` of `list` to `values` (replacing it).
fn put(list: &mut Vec<Samples>, id: u8, values: Vec<f32>) {
    match list.iter_mut().find(|t| t.0 == id) {
        Some(t) => t.1 = values,
        None => list.push((id, values)),
    }
}

/// `channel` sampled at frames `0..n`, `width` values each (`None` without the channel).
fn sample(ch: Option<&Channel>, n: usize) -> Option<Vec<Vec<f32>>> {
    let ch = ch?;
    Some((0..n).map(|f| ch.sample(f as f32 / 60.0)).collect())
}

fn material(
    clip: &Clip,
    m: usize,
    r: &Rest,
    recorded: Option<&MaterialAnimExtras>,
    n: usize,
) -> MaterialSamples {
    let mut out = MaterialSamples {
        material: m,
        ..MaterialSamples::default()
    };
    let carried: Vec<u8> = recorded.map_or(COLOR_TRACKS.to_vec(), |e| e.channels.clone());
    if let Some(rgba) = sample(channel(clip, m, BASE_COLOR), n) {
        for id in carried {
            let k = if id == mobj_track::ALPHA {
                3
            } else {
                usize::from(id.wrapping_sub(4))
            };
            let values = rgba
                .iter()
                .map(|v| {
                    // glTF colours are 0…1; the runtime would wrap a byte outside.
                    let c = v.get(k).copied().unwrap_or(1.0).clamp(0.0, 1.0);
                    if k == 3 { 1.0 - c } else { c }
                })
                .collect();
            put(&mut out.tracks, id, values);
        }
    }
    for t in recorded.map_or(&[][..], |e| &e.tracks) {
        put(&mut out.tracks, t.track, t.values.clone());
    }
    let listed: &[TextureAnimExtras] = recorded.map_or(&[], |e| &e.textures);
    // The base-colour texture: the one our extras say the transform carries, else the first.
    let base = listed
        .iter()
        .find(|t| !t.channels.is_empty())
        .map(|t| t.id)
        .or(r.textures.first().map(|t| t.0));
    let mut textures: Vec<TextureSamples> = listed
        .iter()
        .map(|t| TextureSamples {
            id: t.id,
            tracks: t
                .tracks
                .iter()
                .map(|s| (s.track, s.values.clone()))
                .collect(),
            swap: (t.images.clone(), t.image.clone()),
            aobj_flags: t.aobj_flags,
            stored: t.stored.clone(),
        })
        .collect();
    if let Some(id) = base
        && let Some(srt) = r.textures.iter().find(|t| t.0 == id).map(|t| t.1)
    {
        let part = |k: &str| sample(channel(clip, m, &format!("{TRANSFORM}/{k}")), n);
        let (off, rot, sc) = (part("offset"), part("rotation"), part("scale"));
        if off.is_some() || rot.is_some() || sc.is_some() {
            let ((o0, r0, s0), _) = srt.to_gltf();
            let at = |v: &Option<Vec<Vec<f32>>>, f: usize, k: usize, d: f32| {
                v.as_ref()
                    .and_then(|v| v.get(f)?.get(k).copied())
                    .unwrap_or(d)
            };
            let frames: Vec<TextureSrt> = (0..n)
                .map(|f| {
                    srt.from_gltf((
                        [at(&off, f, 0, o0[0]), at(&off, f, 1, o0[1])],
                        at(&rot, f, 0, r0),
                        [at(&sc, f, 0, s0[0]), at(&sc, f, 1, s0[1])],
                    ))
                })
                .collect();
            let carried = listed
                .iter()
                .find(|t| t.id == id)
                .map_or(TRANSFORM_TRACKS.to_vec(), |t| t.channels.clone());
            if !textures.iter().any(|t| t.id == id) {
                textures.push(TextureSamples {
                    id,
                    ..TextureSamples::default()
                });
            }
            if let Some(t) = textures.iter_mut().find(|t| t.id == id) {
                for track in carried {
                    let values = frames.iter().filter_map(|s| s.track(track)).collect();
                    // Sampled values (our extras) win over the channel's.
                    if !t.tracks.iter().any(|x| x.0 == track) {
                        put(&mut t.tracks, track, values);
                    }
                }
            }
        }
    }
    out.textures = textures;
    out.aobj_flags = recorded.and_then(|e| e.aobj_flags);
    out.stored = recorded.and_then(|e| e.stored.clone());
    out
}

/// The rest value of track `track` of glTF material `m` as the import builds its MObj — of
/// its TObj `texture` for a texture track — when the track has one: the value `v` that gives
/// the rest colour, alpha, pixel-engine byte or texture SRT component.
pub fn rest_value(scene: &Scene, m: usize, texture: Option<u32>, track: u8) -> Option<f32> {
    let r = rest(scene, m, images_trusted(scene))?;
    match texture {
        Some(id) => texture_rest(&r, id, track),
        None => material_rest(&r, track),
    }
}

/// The rest value of MObj track `id` (the value `v` that gives the rest colour, alpha or PE
/// byte), when the track has one.
fn material_rest(r: &Rest, id: u8) -> Option<f32> {
    let byte = |b: u8| f32::from(b) / 255.0;
    let c = &r.colors;
    let k = usize::from(id.wrapping_sub(1) % 3);
    match id {
        1..=3 => c.ambient.0.get(k).copied().map(byte),
        4..=6 => c.diffuse.0.get(k).copied().map(byte),
        7..=9 => c.specular.0.get(k).copied().map(byte),
        mobj_track::ALPHA => Some(1.0 - c.alpha),
        11 => r.pe.map(|p| byte(p.ref0)),
        12 => r.pe.map(|p| byte(p.ref1)),
        13 => r.pe.map(|p| byte(p.dst_alpha)),
        _ => None,
    }
}

/// The rest value of TObj `id`'s track `track` (its SRT), when the track has one.
fn texture_rest(r: &Rest, id: u32, track: u8) -> Option<f32> {
    r.textures
        .iter()
        .find(|t| t.0 == id)
        .and_then(|t| t.1.track(track))
}

/// An index track (image or palette) as HAL's tool writes it: a constant key where the value
/// changes and one at the last frame (wait 0), as unsigned bytes with as many fraction bits as
/// the largest value leaves (PlMrNr's eye swaps, 0–5: format `0x85`), else floats. Returns
/// the stream and the FObj's `frac_value`.
fn step_keys(values: &[f32]) -> Result<((Vec<u8>, u32), u8)> {
    const U8: u8 = 4 << 5;
    let top = values.iter().fold(1.0f32, |m, &v| m.max(v));
    let bytes = values.iter().all(|&v| v >= 0.0 && v.fract() == 0.0) && top <= 255.0;
    let frac = match (0..=7u8)
        .rev()
        .find(|&b| top * f32::from(1u8 << b) <= 255.0)
    {
        Some(b) if bytes => U8 | b,
        _ => 0,
    };
    let last = values.len().saturating_sub(1);
    let mut at: Vec<(usize, f32)> = Vec::new();
    for (f, &v) in values.iter().enumerate() {
        if f == last || at.last().is_none_or(|k| k.1 != v) {
            at.push((f, v));
        }
    }
    let keys: Vec<Key> = at
        .iter()
        .enumerate()
        .map(|(i, &(f, v))| Key {
            op: Op::CON,
            value: Some(v),
            slope: None,
            wait: Some(at.get(i + 1).map_or(0, |n| (n.0 - f) as u32)),
        })
        .collect();
    Ok((stream(&keys, frac)?, frac))
}

/// The AObj `stored` our export recorded where it still gives `tracks` (see
/// [`stored_fits`]); else an FObj chain of `tracks` (those leaving `rest` by more than a tenth
/// of the tolerance; `step` ids as constant keys) and its AObj over frames `0..=end` with the
/// recorded `flags` (else looping).
fn aobj_of(
    b: &mut Builder,
    tracks: &[Samples],
    rest: impl Fn(u8) -> Option<f32>,
    step: &[u8],
    (end, flags, stored): (f32, Option<u32>, Option<&StoredAObj>),
    tol: f32,
) -> Result<Option<Target>> {
    if let Some(s) = stored {
        let frames: Vec<f32> = (0..tracks.iter().map(|t| t.1.len()).max().unwrap_or(0))
            .map(|f| f as f32)
            .collect();
        let samples: Vec<(u8, &[f32])> = tracks.iter().map(|(id, v)| (*id, v.as_slice())).collect();
        if stored_fits(s, &frames, &samples, &rest, |_| false, tol)
            && let Some(a) = write_stored(b, s)?
        {
            return Ok(Some(a));
        }
    }
    let mut next = None;
    for (id, values) in tracks.iter().rev() {
        if at_rest(values, rest(*id), tol) {
            continue;
        }
        let (k, frac) = if step.contains(id) {
            step_keys(values)?
        } else {
            let frames: Vec<f32> = (0..values.len()).map(|f| f as f32).collect();
            (keys(&frames, values, tol)?, 0)
        };
        let mut f = fobj(*id, next, b.keys(k));
        f.frac_value = frac;
        next = Some(b.put(&f));
    }
    Ok(next.map(|first| {
        let mut a = aobj(end, first);
        if let Some(f) = flags {
            a.flags = AObjFlags::from_bits_retain(f);
        }
        b.put(&a)
    }))
}

/// One MatAnimJoint tree per material clip of `scene` over the joints of `skel`, whose DObjs'
/// glTF materials `dobjs` lists per joint, with the root name our export recorded for it.
pub(super) fn animations(
    b: &mut Builder,
    scene: &Scene,
    skel: &Skeleton,
    dobjs: &[Vec<Option<usize>>],
    mats: &mut Materials<'_>,
    tol: f32,
) -> Result<Vec<(Roots, Option<String>)>> {
    let mut out = Vec::new();
    let trusted = mats.trusted;
    for clip in material_clips(scene) {
        let samples = material_tracks(scene, &clip);
        let n = samples
            .iter()
            .flat_map(|m| {
                m.tracks
                    .iter()
                    .chain(m.textures.iter().flat_map(|t| t.tracks.iter()))
                    .map(|t| t.1.len())
                    .chain(m.textures.iter().map(|t| t.swap.1.len()))
            })
            .max()
            .unwrap_or(1);
        let animated: HashMap<usize, (MaterialSamples, Rest)> = samples
            .into_iter()
            .filter_map(|m| Some((m.material, (rest(scene, m.material, trusted)?, m))))
            .map(|(k, (r, m))| (k, (m, r)))
            .collect();
        let drawn = dobjs
            .iter()
            .flatten()
            .flatten()
            .any(|m| animated.contains_key(m));
        if !drawn {
            continue;
        }
        let still = animated.values().all(|(m, r)| {
            m.tracks
                .iter()
                .all(|(id, v)| at_rest(v, material_rest(r, *id), tol))
                && m.textures.iter().all(|t| {
                    t.swap.1.is_empty()
                        && t.tracks
                            .iter()
                            .all(|(id, v)| at_rest(v, texture_rest(r, t.id, *id), tol))
                })
        });
        let mut parts = Parts {
            animated: &animated,
            mats: &mut *mats,
            end: n.saturating_sub(1) as f32,
            tol,
            still,
        };
        let root = extras::read::<MatAnimExtras>(clip.extras.as_ref()).and_then(|x| x.root);
        out.push((tree(b, skel, dobjs, &mut parts)?, root));
    }
    Ok(out)
}

/// What a MatAnim of an animated material is built from.
struct Parts<'m, 'a> {
    animated: &'m HashMap<usize, (MaterialSamples, Rest)>,
    mats: &'m mut Materials<'a>,
    end: f32,
    tol: f32,
    /// The clip moves nothing off the rest values: its tracks are kept all the same (as a
    /// still joint animation keeps its length), else it would leave no tree at all.
    still: bool,
}

/// Whether a track's values stay at the rest value `r` (within the tolerance's tenth, as
/// [`aobj_of`] leaves such tracks out).
fn at_rest(values: &[f32], r: Option<f32>, tol: f32) -> bool {
    r.is_some_and(|r| values.iter().all(|v| (v - r).abs() <= tol * 0.1))
}

impl Parts<'_, '_> {
    /// The AObj and TexAnim list of glTF material `m`'s MatAnim (each DObj gets its own: the
    /// validator refuses a subtree reached twice).
    fn matanim(&mut self, b: &mut Builder, m: usize) -> Result<(Option<Target>, Option<Target>)> {
        let Some((samples, r)) = self.animated.get(&m) else {
            return Ok((None, None));
        };
        let (end, tol, still) = (self.end, self.tol, self.still);
        let a = aobj_of(
            b,
            &samples.tracks,
            |id| material_rest(r, id).filter(|_| !still),
            &[],
            (end, samples.aobj_flags, samples.stored.as_ref()),
            tol,
        )?;
        let mut next = None;
        for t in samples.textures.iter().rev() {
            let Some(&(_, _, desc)) = r.textures.iter().find(|x| x.0 == t.id) else {
                continue; // no TObj of that id to bind to
            };
            // LOD-bias, konst and TEV register tracks only where the TObj has the description
            // the runtime writes them to.
            let described = |id: u8| match id {
                tobj_track::LOD_BIAS => desc.lod,
                _ => desc.tev,
            };
            let mut tracks: Vec<Samples> = t
                .tracks
                .iter()
                .filter(|x| {
                    x.0 != tobj_track::TIMG
                        && (!tobj_track::DESC_TRACKS.contains(&x.0) || described(x.0))
                })
                .cloned()
                .collect();
            let (mut image_table, mut palette_table, mut count) = (None, None, 0);
            if let Some(&i) = t.swap.1.iter().find(|&&i| i as usize >= t.swap.0.len()) {
                // The runtime would read past the image table.
                return Err(gcio::Error::message(format!(
                    "material {m}: image swap selects image {i} of {}",
                    t.swap.0.len()
                )));
            }
            if !t.swap.0.is_empty() && !t.swap.1.is_empty() {
                let mut images = Vec::new();
                let mut palettes = Vec::new();
                for &i in &t.swap.0 {
                    let (img, pal) = self.mats.frame_image(b, i)?;
                    images.push(img);
                    palettes.extend(pal);
                }
                count = u16::try_from(images.len())
                    .map_err(|_| gcio::Error::message("too many swap images"))?;
                image_table = Some(b.ptr_table(&images));
                let index: Vec<f32> = t.swap.1.iter().map(|&i| i as f32).collect();
                put(&mut tracks, tobj_track::TIMG, index.clone());
                // Each indexed image was encoded with its own palette: select it alongside.
                if palettes.len() == images.len() {
                    palette_table = Some(b.ptr_table(&palettes));
                    put(&mut tracks, tobj_track::TCLT, index);
                }
            }
            let ta = aobj_of(
                b,
                &tracks,
                |id| texture_rest(r, t.id, id).filter(|_| !still),
                &[tobj_track::TIMG, tobj_track::TCLT],
                // A swap's tables are built anew: its recorded tracks index the old ones.
                (
                    end,
                    t.aobj_flags,
                    t.stored.as_ref().filter(|_| t.swap.1.is_empty()),
                ),
                tol,
            )?;
            if ta.is_none() {
                continue;
            }
            next = Some(b.put(&TexAnim {
                next,
                id: t.id,
                aobj: ta,
                image_table,
                palette_table,
                n_images: count,
                n_palettes: if palette_table.is_some() { count } else { 0 },
            }));
        }
        Ok((a, next))
    }
}

/// A MatAnimJoint tree mirroring the joints: each joint's MatAnims parallel to its DObjs,
/// carrying the animation of the DObj's material.
fn tree(
    b: &mut Builder,
    skel: &Skeleton,
    dobjs: &[Vec<Option<usize>>],
    parts: &mut Parts<'_, '_>,
) -> Result<Roots> {
    let links = mirror_links(skel);
    // Each joint's DObjs' (AObj, TexAnim), first, to know which trees animate.
    let mut found = Vec::with_capacity(links.len());
    for j in 0..links.len() {
        let mut of_joint = Vec::new();
        for m in dobjs.get(j).map_or(&[][..], Vec::as_slice) {
            of_joint.push(match m {
                Some(m) => parts.matanim(b, *m)?,
                None => (None, None),
            });
        }
        found.push(of_joint);
    }
    let keep = kept(skel, |j| {
        found
            .get(j)
            .is_some_and(|x| x.iter().any(|(a, t)| a.is_some() || t.is_some()))
    });
    let slots: Vec<Option<Target>> = keep
        .iter()
        .map(|&k| k.then(|| b.slot::<MatAnimJoint<Target>>()))
        .collect();
    let link = |k: Option<usize>| k.and_then(|k| slots.get(k).copied().flatten());
    for (j, (child, next)) in links.iter().enumerate() {
        let Some(&Some(at)) = slots.get(j) else {
            continue;
        };
        let mut first = None;
        for &(aobj, texanim) in found.get(j).map_or(&[][..], Vec::as_slice).iter().rev() {
            first = Some(b.put(&MatAnim {
                next: first,
                aobj,
                texanim,
                render_anim: None,
            }));
        }
        b.set(
            at,
            &MatAnimJoint {
                child: link(*child),
                next: link(*next),
                matanim: first,
            },
        );
    }
    roots(skel, &slots)
}
