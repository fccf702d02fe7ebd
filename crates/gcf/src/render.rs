//! `gcf render`: a layout drawn to PNG by `brlyt::render`, optionally animated to a frame by
//! `brlan::apply`. The layout is a file or an archive member (`ARCHIVE:path/to.brlyt`, `:` going
//! into nested archives as `replace` does); its textures are found by their `txl1` file names
//! among the members of the same archive (Galaxy keeps them in `timg/`), or, for a layout file,
//! beside it and in `../timg/` (the folders of an extracted archive). Fonts (`fnl1`) are found
//! the same way (`font/`, `../font/`) or given with `--font`, read by `brfnt`.

use std::path::{Path, PathBuf};

use gcformats::brfnt::render::FontSet;
use gcformats::brlyt::render::{Filter, GlyphSource, Options, render};
use gcformats::gx::tex::Image;

/// What `render` drew.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Made {
    /// The PNG file's bytes.
    #[serde(skip)]
    pub png: Vec<u8>,
    /// Canvas width and height (the layout's screen).
    pub size: [u32; 2],
    /// Panes drawn.
    pub drawn: usize,
    /// `pane: texture` for each texture a drawn pane's material names that was not found.
    pub missing_textures: Vec<String>,
    /// The fonts read (given with `--font`, or found by the layout's `fnl1` names).
    pub fonts: Vec<String>,
    /// `pane: font` for each text pane drawn as its outline (its font not found).
    pub text_without_font: Vec<String>,
    /// Drawing stopped at the renderer's work limit (a hostile layout): the image is incomplete.
    pub exhausted: bool,
    /// Animation values written into the layout, when `--anim` was given.
    pub animated: Option<usize>,
    /// Animation contents naming a pane or material the layout does not have.
    pub unbound: Vec<String>,
    /// Time spent rendering (textures decoded and the canvas drawn), milliseconds.
    pub millis: f64,
}

/// A file, or an archive member when a prefix of `spec` up to a `:` is an existing file (the
/// archive) and the rest the member path.
fn source(spec: &str) -> (PathBuf, Option<String>) {
    if Path::new(spec).exists() {
        return (PathBuf::from(spec), None);
    }
    for (i, _) in spec.match_indices(':') {
        let (file, rest) = spec.split_at(i);
        if Path::new(file).is_file() {
            return (
                PathBuf::from(file),
                Some(rest.trim_start_matches(':').to_owned()),
            );
        }
    }
    (PathBuf::from(spec), None)
}

/// The bytes `spec` names (a member decompressed), and the archive holding it as its members
/// (path, bytes) when it is a member.
type Read = (Vec<u8>, Option<gcformats::Outputs>);

fn read(spec: &str, budget: u64) -> Result<Read, String> {
    let (file, member) = source(spec);
    let data = crate::output::read_input(&file)?;
    let Some(member) = member else {
        return Ok((data, None));
    };
    let bytes = gcformats::archive::member(&data, &member).map_err(|e| format!("{spec}: {e}"))?;
    // The innermost archive: the one the member path's last `:` goes into.
    let holder = match member.rsplit_once(':') {
        Some((outer, _)) => {
            gcformats::archive::member(&data, outer).map_err(|e| format!("{spec}: {e}"))?
        }
        None => data,
    };
    let unpacked = gcformats::archive::unpack(
        &holder,
        &file.display().to_string(),
        budget,
        Some(gcformats::archive::MAX_EXPANSION),
        |_| Ok(()),
    )
    .map_err(|e| format!("{spec}: {e}"))?;
    Ok((bytes, Some(unpacked.files)))
}

/// The first image of a TPL.
fn decode_tpl(data: &[u8]) -> Option<Image> {
    let t = gcformats::tpl::Tpl::parse(data).ok()?;
    t.images.first()?.texture()?.decode_level(0).ok()
}

/// The file name part of a member path or `txl1` name.
fn base_name(p: &str) -> &str {
    p.rsplit(['/', '\\']).next().unwrap_or(p)
}

/// Renders the layout `layout` (a file or `ARCHIVE:member`) to PNG; `anim` (same forms) is
/// applied at `frame` first; `fonts` (same forms) are read before the fonts the layout names
/// are looked for. `budget` bounds the archive's unpacked members.
pub fn render_png(
    layout: &str,
    anim: Option<&str>,
    fonts: &[String],
    frame: f32,
    nearest: bool,
    budget: u64,
) -> Result<Made, String> {
    let (data, members) = read(layout, budget)?;
    let mut lyt = gcformats::brlyt::Brlyt::parse(&data).map_err(|e| format!("{layout}: {e}"))?;
    let (mut animated, mut unbound) = (None, Vec::new());
    if let Some(a) = anim {
        let (bytes, _) = read(a, budget)?;
        let anim = gcformats::brlan::Brlan::parse(&bytes).map_err(|e| format!("{a}: {e}"))?;
        let applied = gcformats::brlan::apply::apply(&anim, &mut lyt, frame);
        animated = Some(applied.values);
        unbound = applied.unbound;
    }
    let (file, _) = source(layout);
    let dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
    // A file the layout names: from the same archive (preferring folder `sub/`), or beside the
    // layout file and in `../sub/`.
    let find = |name: &str, sub: &str| -> Option<Vec<u8>> {
        match &members {
            Some(files) => files
                .iter()
                .filter(|(p, _)| base_name(p).eq_ignore_ascii_case(base_name(name)))
                .min_by_key(|(p, _)| !p.to_ascii_lowercase().starts_with(&format!("{sub}/")))
                .map(|(_, b)| b.clone()),
            None => [dir.join(name), dir.join("..").join(sub).join(name)]
                .iter()
                .find_map(|p| std::fs::read(p).ok()),
        }
    };
    let lookup = |name: &str| -> Option<Image> { decode_tpl(&find(name, "timg")?) };
    let mut set = FontSet::new();
    let mut read_fonts = Vec::new();
    let mut add_font = |set: &mut FontSet, name: &str, bytes: &[u8]| -> Result<(), String> {
        let font = gcformats::brfnt::Brfnt::parse(bytes).map_err(|e| format!("{name}: {e}"))?;
        set.insert(name, font).map_err(|e| format!("{name}: {e}"))?;
        read_fonts.push(name.to_owned());
        Ok(())
    };
    for spec in fonts {
        add_font(&mut set, spec, &read(spec, budget)?.0)?;
    }
    for name in lyt.fonts() {
        let name = name.text();
        // A font that does not read leaves its text panes as outlines, reported.
        if set.metrics(&name).is_none()
            && let Some(bytes) = find(&name, "font")
        {
            let _ = add_font(&mut set, &name, &bytes);
        }
    }
    let glyphs = (!set.is_empty()).then_some(&set as &dyn GlyphSource);
    let opts = Options {
        filter: if nearest {
            Filter::Nearest
        } else {
            Filter::Bilinear
        },
        ..Options::default()
    };
    let start = std::time::Instant::now();
    let r = render(&lyt, lookup, glyphs, &opts).map_err(|e| format!("{layout}: {e}"))?;
    let millis = start.elapsed().as_secs_f64() * 1000.0;
    let png = gcformats::gx::png::encode(&r.image).map_err(|e| format!("{layout}: {e}"))?;
    Ok(Made {
        png,
        size: [r.image.width(), r.image.height()],
        drawn: r.drawn,
        missing_textures: r.missing_textures,
        fonts: read_fonts,
        text_without_font: r.text_without_font,
        exhausted: r.exhausted,
        animated,
        unbound,
        millis,
    })
}

/// The file a layout spec reads (the archive for a member), for the output policy's check that
/// the output is not an input.
pub fn input_file(spec: &str) -> PathBuf {
    source(spec).0
}
