//! The typed JSON our glTF export carries under `extras.hsd` so that an import rebuilds the same
//! model: what glTF has no place for (JObj flags, which joint owns each mesh, the MObj's render
//! mode, colours and pixel engine, each TObj with its image format and palette format). Never
//! bytes of the original: every field is a typed value (schema in `docs/HSD-GLTF.md`). Each level
//! is optional; an import of a plain glTF file works without any of it.

use serde::{Deserialize, Serialize};

use crate::field::Rgba;
use crate::flags::{PeFlags, TObjFlags};
use crate::types::{Material, PixelEngine, TObj, Tev, TexLod};

/// Schema version written by the exporter.
pub const VERSION: u32 = 1;

/// Document-level extras (`extras.hsd` of the glTF document).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ModelExtras {
    /// Schema version ([`VERSION`]).
    pub version: u32,
    /// Per glTF image (same index): how the archive stored it first.
    pub images: Vec<Option<ImageExtras>>,
    /// The scene's ambient lights (glTF has none), which come first in its light list.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ambient: Vec<LightExtras>,
}

/// What a glTF camera cannot say of a CObj (`extras.hsd` of the camera; the eye is the camera
/// node's position, near and far the glTF planes).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct CameraExtras {
    /// CObj flags.
    pub flags: u16,
    /// Viewport: left, right, top, bottom.
    pub viewport: [i16; 4],
    /// Scissor: left, right, top, bottom.
    pub scissor: [u16; 4],
    /// The point looked at (glTF has the direction only).
    pub interest: [f32; 3],
    /// Roll about the view direction (radians).
    pub roll: f32,
    /// The up vector, when the CObj has one.
    pub up: Option<[f32; 3]>,
    /// Vertical field of view in degrees and aspect, as stored (glTF's radians round).
    pub perspective: [f32; 2],
}

/// What a `KHR_lights_punctual` light cannot say of an LObj (`extras.hsd` of the light; its
/// position is the light node's), or an ambient light of [`ModelExtras::ambient`].
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct LightExtras {
    /// LObj flags (type, diffuse, specular, …).
    pub flags: u16,
    /// Attenuation flags.
    pub attn_flags: u16,
    /// Colour, RGBA8.
    pub color: [u8; 4],
    /// The point an infinite or spot light aims at, when the LObj has one.
    pub interest: Option<[f32; 3]>,
    /// An infinite light's parameter word (a float: `cb_plug.dat`'s specular light holds 16).
    pub param: Option<f32>,
}

/// How an image is stored: GX format, mipmaps, palette, CMPR encoder.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ImageExtras {
    /// GX texture format.
    pub format: u32,
    /// Image mipmap word (non-zero: mipmapped).
    pub mipmap: u32,
    /// Minimum and maximum LOD (`max_lod + 1` levels when mipmapped).
    pub lod: [f32; 2],
    /// Palette format and entry count of an indexed image.
    pub palette: Option<(u32, u16)>,
    /// How the encoder that wrote a CMPR image forms its flat sub-blocks
    /// ([`gx::tex::cmpr::Flat::name`], read by [`gx::tex::cmpr::flat_form`]); absent: `hal`.
    /// Tools differ only there, so the import re-encodes an unedited texture byte for byte.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cmpr_flat: Option<String>,
}

/// Per-node extras (`extras.hsd` of a joint's node).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct JointExtras {
    /// The JObj flags word (the import re-derives SKELETON, ENVELOPE_MODEL and the opaque pass
    /// bits, keeps the translucent ones for Melee only, and keeps the others).
    pub flags: u32,
    /// The JObj's rotation (Euler XYZ, radians), scale and translation exactly as stored: the
    /// node's TRS goes through a quaternion and rounds, and a zero scale loses the rotation.
    /// The import takes them where they compose (`T·Rz·Ry·Rx·S`) to the node's matrix within
    /// a small tolerance, so an edited node wins. Absent when a value is not finite.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub srt: Option<[[f32; 3]; 3]>,
    /// The JObj's RObj chain in order (constraints, limits, IK hints; seed 003's IK limbs read
    /// their bone length and pole flip from the hints). Expression RObjs are not carried.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub robj: Vec<RObjExtras>,
    /// Not a joint: the node between a joint and its children holding `Scale(1/P)` for the
    /// joint's accumulated scale `P`, so glTF composes the runtime's scale inheritance
    /// (docs/HSD-GLTF.md, "Scale inheritance"). The import folds it back.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub inherited_scale: bool,
    /// The archive's root symbol naming the joint tree this joint tops (`NAME_joint`): the
    /// game looks a model up by it, so the import in Melee order names the tree alike.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub root: Option<String>,
}

/// One RObj: its flags word (type in bits 28–30, the pole flip and sub-type in the low bits)
/// and the one value its type has.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct RObjExtras {
    /// The flags word as stored.
    pub flags: u32,
    /// A JOBJ constraint's target: node index of the joint.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub joint: Option<usize>,
    /// A LIMIT's value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<f32>,
    /// An IKHINT's bone length and X rotation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ik: Option<[f32; 2]>,
}

/// Per-mesh extras (`extras.hsd` of a glTF mesh).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct MeshExtras {
    /// Index of the node (joint) whose DObj held the PObj.
    pub joint: Option<usize>,
    /// The PObj's cull bits (`CULLFRONT`, `CULLBACK`).
    pub cull: u16,
    /// Ordinal of the DObj that held the PObj (DObjs numbered in joint, then list order):
    /// consecutive meshes with the same one go back into one DObj.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dobj: Option<usize>,
    /// The envelope palette of an envelope PObj, slot by slot: (node index, weight) as the
    /// envelope array lists them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub palette: Vec<Vec<(usize, f32)>>,
    /// The PObj's vertex descriptor, one entry per attribute in list order: GX attribute,
    /// attribute type (direct, 8- or 16-bit index), component count, component type and
    /// fraction bits — the quantisation the import stores the glTF values in.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub vtx: Vec<[u32; 5]>,
}

/// Per-material extras (`extras.hsd` of a glTF material): one MObj.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct MaterialExtras {
    /// Schema version ([`VERSION`]).
    pub version: u32,
    /// MObj render mode.
    pub render_mode: u32,
    /// Ambient, diffuse and specular colours (RGBA8).
    pub colors: Option<[[u8; 4]; 3]>,
    /// Material alpha.
    pub alpha: f32,
    /// Specular shininess.
    pub shininess: f32,
    /// Pixel engine: flags, ref0, ref1, dst_alpha, blend_type, src, dst, logic_op, z_comp,
    /// alpha_comp0, alpha_op, alpha_comp1.
    pub pe: Option<[u8; 12]>,
    /// The TObj chain in order.
    pub textures: Vec<TextureExtras>,
}

/// One TObj with its image and palette formats.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct TextureExtras {
    /// glTF image index holding the decoded pixels.
    pub image: Option<usize>,
    /// TObj id (GX texture map).
    pub id: u32,
    /// Texture coordinate source.
    pub src: u32,
    /// Euler rotation, scale and translation of the texture matrix.
    pub srt: [[f32; 3]; 3],
    /// Wrap modes S and T.
    pub wrap: [u32; 2],
    /// Repeat counts S and T.
    pub repeat: [u8; 2],
    /// TObj flags (coordinate mode, light maps, colour and alpha operations).
    pub flags: u32,
    /// Blending factor.
    pub blending: f32,
    /// Magnification filter.
    pub mag_filter: u32,
    /// How the image is stored.
    pub stored: ImageExtras,
    /// The TObj's TEV stage, when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tev: Option<TevExtras>,
    /// The TObj's LOD description, when it has one (a LOD-bias track writes to it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lod: Option<LodExtras>,
}

/// A TObj's LOD description (`HSD_TObjLodDesc`), field by field.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct LodExtras {
    /// Minification filter (GXTexFilter).
    pub min_filter: u32,
    /// LOD bias.
    pub bias: f32,
    /// Bias clamp.
    pub bias_clamp: u8,
    /// Edge LOD.
    pub edge_lod: u8,
    /// Maximum anisotropy (GXAnisotropy).
    pub max_anisotropy: u32,
}

impl LodExtras {
    /// The extras of `l`.
    pub fn new(l: &TexLod) -> Self {
        LodExtras {
            min_filter: l.min_filter,
            bias: l.lod_bias,
            bias_clamp: l.bias_clamp,
            edge_lod: l.edge_lod,
            max_anisotropy: l.max_anisotropy,
        }
    }

    /// The LOD description these extras describe.
    pub fn lod(&self) -> TexLod {
        TexLod {
            min_filter: self.min_filter,
            lod_bias: self.bias,
            bias_clamp: self.bias_clamp,
            edge_lod: self.edge_lod,
            max_anisotropy: self.max_anisotropy,
        }
    }
}

/// A TObj's TEV stage (`HSD_TObjTevDesc`), field by field.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct TevExtras {
    /// Colour and alpha operations.
    pub op: [u8; 2],
    /// Colour and alpha bias.
    pub bias: [u8; 2],
    /// Colour and alpha scale.
    pub scale: [u8; 2],
    /// Colour and alpha clamp.
    pub clamp: [u8; 2],
    /// Colour inputs a..d.
    pub color_in: [u8; 4],
    /// Alpha inputs a..d.
    pub alpha_in: [u8; 4],
    /// Konst colour, TEV registers 0 and 1 (RGBA8).
    pub colors: [[u8; 4]; 3],
    /// Active bits.
    pub active: u32,
}

impl TevExtras {
    /// The extras of `t`.
    pub fn new(t: &Tev) -> Self {
        TevExtras {
            op: [t.color_op, t.alpha_op],
            bias: [t.color_bias, t.alpha_bias],
            scale: [t.color_scale, t.alpha_scale],
            clamp: [t.color_clamp, t.alpha_clamp],
            color_in: t.color_in,
            alpha_in: t.alpha_in,
            colors: [t.konst.0, t.tev0.0, t.tev1.0],
            active: t.active,
        }
    }

    /// The TEV stage these extras describe.
    pub fn tev(&self) -> Tev {
        Tev {
            color_op: self.op[0],
            alpha_op: self.op[1],
            color_bias: self.bias[0],
            alpha_bias: self.bias[1],
            color_scale: self.scale[0],
            alpha_scale: self.scale[1],
            color_clamp: self.clamp[0],
            alpha_clamp: self.clamp[1],
            color_in: self.color_in,
            alpha_in: self.alpha_in,
            konst: Rgba(self.colors[0]),
            tev0: Rgba(self.colors[1]),
            tev1: Rgba(self.colors[2]),
            active: self.active,
        }
    }
}

impl MaterialExtras {
    /// The extras of an MObj's parts.
    pub fn new(render_mode: u32, colors: Option<&Material>, pe: Option<&PixelEngine>) -> Self {
        MaterialExtras {
            version: VERSION,
            render_mode,
            colors: colors.map(|c| [c.ambient.0, c.diffuse.0, c.specular.0]),
            alpha: colors.map_or(1.0, |c| c.alpha),
            shininess: colors.map_or(50.0, |c| c.shininess),
            pe: pe.map(|p| {
                [
                    p.flags.bits(),
                    p.ref0,
                    p.ref1,
                    p.dst_alpha,
                    p.blend_type,
                    p.src_factor,
                    p.dst_factor,
                    p.logic_op,
                    p.z_comp,
                    p.alpha_comp0,
                    p.alpha_op,
                    p.alpha_comp1,
                ]
            }),
            textures: Vec::new(),
        }
    }

    /// The material colours, when recorded.
    pub fn material(&self) -> Option<Material> {
        let [ambient, diffuse, specular] = self.colors?;
        Some(Material {
            ambient: Rgba(ambient),
            diffuse: Rgba(diffuse),
            specular: Rgba(specular),
            alpha: self.alpha,
            shininess: self.shininess,
        })
    }

    /// The pixel engine, when recorded.
    pub fn pixel_engine(&self) -> Option<PixelEngine> {
        let [
            flags,
            ref0,
            ref1,
            dst_alpha,
            blend_type,
            src,
            dst,
            logic_op,
            z,
            c0,
            op,
            c1,
        ] = self.pe?;
        Some(PixelEngine {
            flags: PeFlags::from_bits_retain(flags),
            ref0,
            ref1,
            dst_alpha,
            blend_type,
            src_factor: src,
            dst_factor: dst,
            logic_op,
            z_comp: z,
            alpha_comp0: c0,
            alpha_op: op,
            alpha_comp1: c1,
        })
    }
}

impl TextureExtras {
    /// The extras of a TObj whose pixels are glTF image `image`.
    pub fn new<P>(t: &TObj<P>, image: Option<usize>) -> Self {
        TextureExtras {
            image,
            id: t.id,
            src: t.src,
            srt: [t.rotate, t.scale, t.translate],
            wrap: [t.wrap_s, t.wrap_t],
            repeat: [t.repeat_s, t.repeat_t],
            flags: t.flags.bits(),
            blending: t.blending,
            mag_filter: t.mag_filter,
            stored: ImageExtras::default(),
            tev: None,
            lod: None,
        }
    }

    /// The TObj these extras describe (links and pointers NULL).
    pub fn tobj<P>(&self) -> TObj<P> {
        let [rotate, scale, translate] = self.srt;
        TObj {
            class_name: None,
            next: None,
            id: self.id,
            src: self.src,
            rotate,
            scale,
            translate,
            wrap_s: self.wrap[0],
            wrap_t: self.wrap[1],
            repeat_s: self.repeat[0],
            repeat_t: self.repeat[1],
            flags: TObjFlags::from_bits_retain(self.flags),
            blending: self.blending,
            mag_filter: self.mag_filter,
            image: None,
            palette: None,
            lod: None,
            tev: None,
        }
    }
}

/// `extras.hsd` of a scene item as `T`, when present and well-formed.
pub fn read<T: for<'de> Deserialize<'de>>(extras: Option<&serde_json::Value>) -> Option<T> {
    let v = extras?.get("hsd")?;
    serde_json::from_value(v.clone()).ok()
}

/// `value` as `{"hsd": value}`.
pub fn write<T: Serialize>(value: &T) -> Option<serde_json::Value> {
    serde_json::to_value(value)
        .ok()
        .map(|v| serde_json::json!({ "hsd": v }))
}

/// Animation extras (`extras.hsd` of a glTF animation that an AnimJoint tree became).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct JointAnimExtras {
    /// `[node, flags]` for each AnimJoint of the tree: bit 0 sets or clears
    /// `JOBJ_CLASSICAL_SCALE` on its joint while the animation is on (docs/HSD-GLTF.md, "Scale
    /// inheritance"). The import writes them back; an AnimJoint without an entry takes its
    /// joint's classical bit.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub anim_joint_flags: Vec<[u32; 2]>,
    /// Each animated joint's AObj and FObjs as stored: the import writes them back where they
    /// still evaluate to the animation's samples (an unedited clip), so the keys come back as
    /// the file had them instead of a fit.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub curves: Vec<JointCurves>,
    /// The archive's root symbol naming the AnimJoint tree (`NAME_animjoint`), when a root
    /// named it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub root: Option<String>,
}

/// One AObj of a joint animation as stored (see [`JointAnimExtras::curves`]).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct JointCurves {
    /// Node index of the joint.
    pub node: usize,
    /// The AObj.
    #[serde(flatten)]
    pub aobj: StoredAObj,
}

/// An AObj as stored: its flags, end frame and FObjs. The import writes it back where its
/// curves still give the animation's samples (an unedited clip).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct StoredAObj {
    /// The AObj's flags word.
    pub flags: u32,
    /// The AObj's end frame.
    pub end_frame: f32,
    /// Its FObjs in list order.
    pub tracks: Vec<StoredTrack>,
}

impl StoredAObj {
    /// A decoded AObj's record.
    pub fn of(a: &crate::anim::Animation) -> StoredAObj {
        StoredAObj {
            flags: a.flags.bits(),
            end_frame: a.end_frame,
            tracks: a.tracks.iter().map(StoredTrack::of).collect(),
        }
    }
}

/// One FObj: its track id, start frame, number formats and keys in their packs.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct StoredTrack {
    /// Track id (`HSD_A_J_*`).
    pub track: u8,
    /// Start frame.
    pub start_frame: f32,
    /// Value format and shift.
    pub frac_value: u8,
    /// Slope format and shift.
    pub frac_slope: u8,
    /// Packs: the opcode and each key's `[value, slope, wait]` (`null` where the key has none).
    pub packs: Vec<(u8, Vec<[Option<f64>; 3]>)>,
}

impl StoredTrack {
    /// A decoded FObj's record.
    pub fn of(t: &crate::anim::Track) -> StoredTrack {
        StoredTrack {
            track: t.track,
            start_frame: t.start_frame,
            frac_value: t.frac_value,
            frac_slope: t.frac_slope,
            packs: t
                .packs
                .iter()
                .map(|p| {
                    let keys = p.keys.iter().map(|k| {
                        [
                            k.value.map(f64::from),
                            k.slope.map(f64::from),
                            k.wait.map(f64::from),
                        ]
                    });
                    (p.op.0, keys.collect())
                })
                .collect(),
        }
    }

    /// The packs as keys (`None` when a wait is no whole number).
    pub fn packs(&self) -> Option<Vec<crate::fobj::Pack>> {
        self.packs
            .iter()
            .map(|(op, keys)| {
                let keys = keys
                    .iter()
                    .map(|[v, s, w]| {
                        let wait = match w {
                            Some(w)
                                if w.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(w) =>
                            {
                                Some(*w as u32)
                            }
                            Some(_) => return None,
                            None => None,
                        };
                        Some(crate::fobj::Key {
                            op: crate::fobj::Op(*op),
                            value: v.map(|x| x as f32),
                            slope: s.map(|x| x as f32),
                            wait,
                        })
                    })
                    .collect::<Option<Vec<_>>>()?;
                Some(crate::fobj::Pack {
                    op: crate::fobj::Op(*op),
                    keys,
                })
            })
            .collect()
    }
}

/// Animation extras (`extras.hsd` of a glTF animation that a MatAnimJoint tree became): per
/// animated material, which of its tracks the animation's `KHR_animation_pointer` channels
/// carry exactly, the other tracks sampled at every frame, and texture image swaps.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct MatAnimExtras {
    /// Schema version ([`VERSION`]).
    pub version: u32,
    /// The archive's root symbol naming the MatAnimJoint tree (`NAME_matanim_joint`), when a
    /// root named it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub root: Option<String>,
    /// Frames sampled (the tree's last `end_frame` + 1; 60 per second).
    pub frames: u32,
    /// The animated materials.
    pub materials: Vec<MaterialAnimExtras>,
}

/// One animated MObj (`HSD_A_M_*` tracks) and its animated TObjs.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct MaterialAnimExtras {
    /// glTF material index.
    pub material: usize,
    /// Track ids the material's `baseColorFactor` channel carries exactly (diffuse 4–6 for an
    /// untextured material, alpha 10 as `1 − a`).
    pub channels: Vec<u8>,
    /// The other tracks, sampled.
    pub tracks: Vec<TrackSamples>,
    /// Animated TObjs.
    pub textures: Vec<TextureAnimExtras>,
    /// The AObj's flags (`AOBJ_ANIM_LOOP` …), when it has one; the import's default is loop.
    pub aobj_flags: Option<u32>,
    /// The AObj as stored, written back where its curves still give the samples.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stored: Option<StoredAObj>,
}

/// One animated TObj (`HSD_A_T_*` tracks).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct TextureAnimExtras {
    /// TObj id (GXTexMapID, the TexAnim's key).
    pub id: u32,
    /// Track ids the base-colour texture's `KHR_texture_transform` channels carry exactly
    /// (translation 2–3, scale 4–5, rotation Z 8).
    pub channels: Vec<u8>,
    /// The other tracks, sampled (image and palette swaps excluded: see `images`).
    pub tracks: Vec<TrackSamples>,
    /// Image swap: the TexAnim's image table as glTF image indices (each entry drawn with its
    /// palette), then any other image a frame draws.
    pub images: Vec<usize>,
    /// Image swap: per frame, the index into `images` drawn (empty without a swap).
    pub image: Vec<u32>,
    /// The AObj's flags, as for a material.
    pub aobj_flags: Option<u32>,
    /// The AObj as stored, as for a material (not used where the texture swaps images).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stored: Option<StoredAObj>,
}

/// A track sampled at every frame.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct TrackSamples {
    /// Track id.
    pub track: u8,
    /// Its value `v` at frames 0, 1, …
    pub values: Vec<f32>,
}
