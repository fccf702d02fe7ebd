//! `gcf`: identify, inspect, validate, round-trip, survey, extract, pack and convert GameCube/Wii
//! files. Every subcommand takes `--json`. Output formats are a contract scripts rely on; see
//! the README.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use gcf::{Examined, Options, RoundTrip, examine, identify, output, survey};
use gcio::Severity;

#[derive(Parser)]
#[command(
    name = "gcf",
    version,
    about = "Read, check, round-trip and convert GameCube/Wii game files",
    after_help = "A FILE of `-` is standard input; an output file of `-` is standard output.\n\
                  Outputs are written to a temporary file and renamed; existing outputs and\n\
                  non-empty folders are refused unless --force. Errors are JSON under --json."
)]
struct Cli {
    /// Print JSON instead of text (errors too).
    #[arg(long, global = true)]
    json: bool,
    // The subcommands' options, also accepted before the subcommand (`gcf --force extract …`)
    // but listed only on the subcommands they affect.
    #[arg(long, hide = true)]
    force: bool,
    #[arg(long, hide = true, value_name = "FILE")]
    names: Vec<PathBuf>,
    #[arg(long, hide = true, value_name = "SIZE", value_parser = gcf::parse_size)]
    budget: Option<u64>,
    #[command(subcommand)]
    cmd: Cmd,
}

/// `--force`, for the commands that write files.
#[derive(clap::Args, Default, Clone)]
struct WriteOpts {
    /// Replace an existing output file, or a used output folder whole.
    #[arg(long)]
    force: bool,
}

/// `--budget`, for the commands that decompress or read folders.
#[derive(clap::Args, Default, Clone)]
struct BudgetOpts {
    /// Most bytes one input may expand to (decompressed members and payloads, extracted files,
    /// a folder to pack), e.g. 512M or 8G; default 4G (extract: also 64x the archive's size).
    #[arg(long, value_name = "SIZE", value_parser = gcf::parse_size)]
    budget: Option<u64>,
}

/// `--names`, for the commands that print BCSV field names.
#[derive(clap::Args, Default, Clone)]
struct NamesOpts {
    /// Extra BCSV field names, one per line (`#` comments; `HASH<TAB>NAME` lines are checked).
    #[arg(long, value_name = "FILE")]
    names: Vec<PathBuf>,
}

#[derive(Subcommand)]
enum Cmd {
    /// Print PATH<TAB>FORMAT[<TAB>DETAIL] for each file (a directory: every file under it).
    Identify {
        /// Files or directories (`-`: standard input).
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Summarise a file's structure (through compression, to the archive inside).
    Info {
        #[command(flatten)]
        budget: BudgetOpts,
        #[command(flatten)]
        names: NamesOpts,
        /// The file (`-`: standard input).
        file: PathBuf,
    },
    /// Validate: PATH<TAB>SEVERITY<TAB>RULE<TAB>0xOFFSET<TAB>MESSAGE; exit 1 on any error. A
    /// directory stands for every file under it. An archive's members (and a compressed file's payload) are validated too, as ARCHIVE:MEMBER.
    Check {
        #[command(flatten)]
        budget: BudgetOpts,
        #[command(flatten)]
        names: NamesOpts,
        /// Files or directories (`-`: standard input).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Wave system to check an instrument bank against (same as `-o wsys=FILE`).
        #[arg(long)]
        wsys: Option<PathBuf>,
        /// Option KEY=VALUE of a format's check (listed below).
        #[arg(short = 'o', value_parser = parse_kv)]
        opt: Vec<(String, String)>,
    },
    /// Parse and rewrite (a directory: every file under it): PATH<TAB>FORMAT<TAB>identical|identical (raw: PARTS)|differs at
    /// 0xOFF|error: MSG|kept; exit 1 unless every file is identical (members of unknown formats
    /// are `kept`, opaque bytes; `raw:` names parts the model copied instead of rewriting).
    Roundtrip {
        #[command(flatten)]
        budget: BudgetOpts,
        /// Files or directories (`-`: standard input).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Also round-trip archive members.
        #[arg(long)]
        deep: bool,
    },
    /// Examine every file under PATH, descending into archives, and print per-format totals.
    Survey {
        #[command(flatten)]
        budget: BudgetOpts,
        #[command(flatten)]
        names: NamesOpts,
        #[command(flatten)]
        write: WriteOpts,
        /// A file, a directory or a disc image (default: the current directory).
        #[arg(default_value = ".")]
        path: PathBuf,
        /// Worker threads (default: one per core).
        #[arg(long)]
        threads: Option<usize>,
        /// Also write a self-contained HTML report to this file.
        #[arg(long)]
        html: Option<PathBuf>,
        /// Exit 1 when any file fails to parse or breaks an error rule (`error`), or does not
        /// round-trip identically (`diff`).
        #[arg(long, value_enum)]
        fail_on: Option<FailOn>,
        /// Also list the facts each format collects (counters such as `opcode 0xc1`).
        #[arg(long)]
        facts: bool,
    },
    /// Write an archive's members (decompressed) and a manifest (.gcf-rarc.txt) into DIR; the
    /// archive may be compressed (Galaxy's .arc files are Yaz0). DIR must be new or empty;
    /// --force replaces it whole. Members may expand to 64x the archive's size unless --budget.
    Extract {
        #[command(flatten)]
        budget: BudgetOpts,
        #[command(flatten)]
        write: WriteOpts,
        /// The archive (.arc, .szs, .rarc, .pkx).
        archive: PathBuf,
        /// The folder to create.
        dir: PathBuf,
    },
    /// Build an archive from DIR. A folder from `extract` packs back byte for byte (edits change
    /// only the edited members; files the manifest does not list are refused unless --add; the
    /// original's Yaz0 encoder is reused). Otherwise the output name picks the format
    /// (.arc/.rarc: RARC, .szs: Yaz0 RARC, .pkx). The result is read back before it is written.
    Pack {
        #[command(flatten)]
        budget: BudgetOpts,
        #[command(flatten)]
        write: WriteOpts,
        /// The folder to pack.
        dir: PathBuf,
        /// The archive to write.
        archive: PathBuf,
        /// Pack files and folders the manifest does not list, as new members.
        #[arg(long)]
        add: bool,
        /// Yaz0-compress with this encoder (nintendo, gclib, whitehole, oead-6..9, libyaz0, efe,
        /// mkwsp, wszst-1..8, ctlib, fast, best; `convert --help` lists all) whatever the output
        /// name; `none`: no compression.
        #[arg(long)]
        yaz0: Option<String>,
        /// Lower-case names (SMG1 convention; folders without a manifest).
        #[arg(long)]
        lowercase: bool,
        /// Turn file-ID synchronisation on (folders without a manifest).
        #[arg(long)]
        sync_ids: bool,
        /// Pack what symbolic links point to (refused by default).
        #[arg(long)]
        follow_symlinks: bool,
        /// Extra option KEY=VALUE.
        #[arg(short = 'o', value_parser = parse_kv)]
        opt: Vec<(String, String)>,
    },
    /// Replace one member of an archive with FILE, keeping every other byte and the original
    /// encoders. FILE must be of the member's format, or an export that converts to it (a table's
    /// .csv/.json, a texture's .png); anything else is refused.
    Replace {
        #[command(flatten)]
        write: WriteOpts,
        /// The archive, edited in place unless --out.
        archive: PathBuf,
        /// A path inside the archive (`jmp/Placement/ObjInfo`); `:` goes into an archive stored
        /// as a member (`inner.arc:dir/file`).
        member: String,
        /// The new member, or a .csv/.json/.png it is converted from.
        file: PathBuf,
        /// Write the result here instead of replacing ARCHIVE in place.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Compare the layouts of two files of a format that offers it (sysdolphin .dat). For a
    /// .dat, BNB is the share of 4-byte words of A equal to B's word at the same index or within
    /// 8 words of it (100 %: the same layout); NBN, per struct kind, the structs of A equal to
    /// B's struct of that kind and ordinal (pointers compared as set or null). First line
    /// `BNB <percent>` (A the reference; for B a rebuild of A, the figure with A's recorded
    /// texture list), second `BNB-rules <percent>` (B's model laid out by the order rules alone,
    /// no texture list), then per compiler-phase region BNB and per struct kind NBN.
    Compare {
        /// The reference (e.g. the game's file).
        a: PathBuf,
        /// The file compared with it (e.g. `gcf rebuild`'s output).
        b: PathBuf,
    },
    /// Lay a file out afresh the way the game's tools do, for a format that offers it (a
    /// sysdolphin .dat in HAL's compiler order; not the layout-preserving writer).
    /// Findings on the result go to stderr (check's format); they stop the rebuild (an error,
    /// nothing written) only when the input did not have them: a layout that reads worse is
    /// refused.
    Rebuild {
        #[command(flatten)]
        write: WriteOpts,
        /// The file to lay out afresh (a .dat).
        input: PathBuf,
        /// The file to write (`-`: standard output).
        output: PathBuf,
        /// Same as `-o order=ORDER`: a .dat's compiler order, `xd` (Colosseum/XD) or `melee`
        /// (Melee, Chibi-Robo); default: the one the input's layout follows.
        #[arg(long)]
        order: Option<String>,
        /// Option KEY=VALUE of the format's rebuild.
        #[arg(short = 'o', value_parser = parse_kv)]
        opt: Vec<(String, String)>,
    },
    /// Draw an NW4R layout (.brlyt) to a PNG: LAYOUT is a file (textures beside it or in
    /// ../timg/) or ARCHIVE:path/to.brlyt (textures from that archive). Reports textures not
    /// found, text panes drawn as outlines (no font) and the time taken.
    Render {
        #[command(flatten)]
        budget: BudgetOpts,
        #[command(flatten)]
        write: WriteOpts,
        /// The layout: a .brlyt file, or ARCHIVE:MEMBER (`:` also goes into nested archives).
        layout: String,
        /// The PNG to write.
        output: PathBuf,
        /// A .brlan (file or ARCHIVE:MEMBER) applied to the layout at --frame first.
        #[arg(long)]
        anim: Option<String>,
        /// The animation frame.
        #[arg(long, default_value_t = 0.0)]
        frame: f32,
        /// Sample textures at the nearest texel instead of bilinearly.
        #[arg(long)]
        nearest: bool,
        /// A .brfnt (file or ARCHIVE:MEMBER) for the text panes naming it, repeatable; fonts
        /// the layout names are otherwise looked for like its textures (`font/`, `../font/`).
        #[arg(long, value_name = "FONT")]
        font: Vec<String>,
    },
    /// Convert between formats; the file names' extensions choose the conversion.
    Convert {
        #[command(flatten)]
        budget: BudgetOpts,
        #[command(flatten)]
        names: NamesOpts,
        #[command(flatten)]
        write: WriteOpts,
        /// The file (or, for a folder format such as a TPL's PNGs, the folder) to convert.
        input: PathBuf,
        /// What to make: its extension chooses the conversion (no extension: a folder).
        output: PathBuf,
        /// Target pixel/texture format where one applies (e.g. cmpr).
        #[arg(long)]
        format: Option<String>,
        /// DAT model to embed (PKX from JSON metadata).
        #[arg(long)]
        dat: Option<PathBuf>,
        /// J3D animation (BCK/BCA joints, BTK/BRK/BPK/BVA as KHR_animation_pointer channels, BTP/BLK/BLA
        /// as extras) to add to a model's .glb; repeatable (`-o fps=N`, default 60).
        #[arg(long)]
        anim: Vec<PathBuf>,
        /// Extra option KEY=VALUE.
        #[arg(short = 'o', value_parser = parse_kv)]
        opt: Vec<(String, String)>,
    },
}

impl Cmd {
    /// The subcommand's `--force`, `--budget` and `--names` (off, unset, none where it has none).
    fn common(&self) -> (bool, Option<u64>, Vec<PathBuf>) {
        let (w, b, n) = match self {
            Cmd::Info { budget, names, .. } | Cmd::Check { budget, names, .. } => {
                (None, Some(budget), Some(names))
            }
            Cmd::Roundtrip { budget, .. } => (None, Some(budget), None),
            Cmd::Survey {
                budget,
                names,
                write,
                ..
            }
            | Cmd::Convert {
                budget,
                names,
                write,
                ..
            } => (Some(write), Some(budget), Some(names)),
            Cmd::Extract { budget, write, .. }
            | Cmd::Pack { budget, write, .. }
            | Cmd::Render { budget, write, .. } => (Some(write), Some(budget), None),
            Cmd::Replace { write, .. } | Cmd::Rebuild { write, .. } => (Some(write), None, None),
            Cmd::Identify { .. } | Cmd::Compare { .. } => (None, None, None),
        };
        (
            w.is_some_and(|w| w.force),
            b.and_then(|b| b.budget),
            n.map(|n| n.names.clone()).unwrap_or_default(),
        )
    }
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum FailOn {
    Error,
    Diff,
}

/// Writes to stdout. A closed pipe (`gcf info x | head`) ends the program quietly, as Unix tools do,
/// instead of panicking like `println!`.
fn emit(args: std::fmt::Arguments<'_>) {
    use std::io::Write;
    if let Err(e) = std::io::stdout().lock().write_fmt(args) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("gcf: stdout: {e}");
        }
        std::process::exit(if e.kind() == std::io::ErrorKind::BrokenPipe {
            0
        } else {
            1
        });
    }
}

macro_rules! out {
    ($($t:tt)*) => { emit(format_args!($($t)*)) };
}

macro_rules! outln {
    ($($t:tt)*) => { emit(format_args!("{}\n", format_args!($($t)*))) };
}

fn parse_kv(s: &str) -> Result<(String, String), String> {
    s.split_once('=')
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .ok_or_else(|| format!("expected KEY=VALUE, got {s:?}"))
}

fn options(opt: Vec<(String, String)>, extra: &[(&str, Option<String>)]) -> Options {
    let mut o: Options = opt.into_iter().collect();
    for (k, v) in extra {
        if let Some(v) = v {
            o.insert((*k).to_owned(), v.clone());
        }
    }
    o
}

fn path_opt(p: Option<PathBuf>) -> Option<String> {
    p.map(|p| p.display().to_string())
}

/// The command's paths with every directory replaced by the files under it (sorted), each with
/// whether it was found in a directory; a path that cannot be listed stays, so reading it reports
/// the error.
fn inputs(paths: Vec<PathBuf>) -> Vec<(PathBuf, bool)> {
    paths
        .into_iter()
        .flat_map(|p| match p.is_dir().then(|| gcf::survey::files_under(&p)) {
            Some(Ok(files)) => files.into_iter().map(|f| (f, true)).collect(),
            _ => vec![(p, false)],
        })
        .collect()
}

/// A file found in a directory that no format recognises is kept as it is, as an archive's
/// unknown member is (a folder of game files holds text, movies and sound data); one named on
/// the command line is an error.
fn unknown_listed_is_kept(found: &mut [Examined], listed: bool) {
    for e in found.iter_mut().filter(|_| listed) {
        if e.roundtrip == RoundTrip::Unknown {
            e.roundtrip = RoundTrip::Kept;
        }
    }
}

/// The registered format of the file `path` holding `data`, or an error naming it.
fn registered(data: &[u8], path: &Path) -> Result<&'static dyn gcformats::Format, String> {
    gcformats::detect_format(data, &path.to_string_lossy())
        .map(|(f, _)| f)
        .ok_or_else(|| format!("{}: unknown format", path.display()))
}

fn read(path: &Path) -> Result<Vec<u8>, String> {
    output::read_input(path)
}

fn print_json(v: &impl serde::Serialize) -> Result<(), String> {
    serde_json::to_string_pretty(v)
        .map(|s| outln!("{s}"))
        .map_err(|e| e.to_string())
}

fn code(failed: bool) -> ExitCode {
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// A message for the user that is not the command's output (always stderr).
fn notice(json: bool, msg: &str) {
    if json {
        eprintln!("{}", serde_json::json!({ "notice": msg }));
    } else {
        eprintln!("gcf: {msg}");
    }
}

fn main() -> ExitCode {
    let json = std::env::args_os().any(|a| a == "--json");
    use clap::{CommandFactory, FromArgMatches};
    let command = Cli::command()
        .mut_subcommand("convert", |c| c.after_help(gcf::conversions_help()))
        .mut_subcommand("check", |c| c.after_help(gcf::check_options_help()));
    let cli = match command
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m))
    {
        Ok(c) => c,
        Err(e) if !json || !e.use_stderr() => e.exit(),
        Err(e) => {
            outln!(
                "{}",
                serde_json::json!({"error": e.to_string().trim(), "kind": "usage"})
            );
            return ExitCode::from(2);
        }
    };
    match run(cli) {
        Ok(code) => code,
        Err(msg) if json => {
            outln!("{}", serde_json::json!({ "error": msg }));
            ExitCode::FAILURE
        }
        Err(msg) => {
            eprintln!("gcf: {msg}");
            ExitCode::FAILURE
        }
    }
}

/// Reports one input that could not be handled and lets the batch go on: stderr in text mode, a
/// `{"path", "error"}` row under `--json`.
fn file_error(json: bool, rows: &mut Vec<serde_json::Value>, path: &Path, msg: String) {
    if json {
        rows.push(serde_json::json!({"path": path.display().to_string(), "error": msg}));
    } else {
        eprintln!("gcf: {msg}");
    }
}

/// `info` through compression layers: the stream, then what it holds.
fn info_chain(
    file: &gcf::Opened<'_>,
    name: &str,
    spent: &mut gcf::Spent,
) -> Result<serde_json::Value, String> {
    if !file.is_known() {
        return Err(format!("{name}: unknown format"));
    }
    let det = file.detection();
    if file.is_compressed() {
        // The payload's declared size against the budget, before decoding it.
        let mut probe = *spent;
        probe
            .charge(file.expands_to().unwrap_or(0))
            .map_err(|e| format!("{name}: {e}"))?;
    }
    let info = file.info().map_err(|e| format!("{name}: {e}"))?;
    let mut v = serde_json::json!({"path": name, "format": det.format, "detail": det.detail, "info": info.json, "text": info.text});
    if file.is_compressed() && file.depth() < gcf::MAX_NESTING {
        let Some(payload) = file
            .members()
            .map_err(|e| format!("{name}: {e}"))?
            .into_iter()
            .next()
        else {
            return Ok(v);
        };
        spent
            .charge(payload.bytes().len() as u64)
            .map_err(|e| format!("{name}: {e}"))?;
        if payload.is_known() {
            let inner = info_chain(&payload, &format!("{name}:payload"), spent)?;
            if let Some(o) = v.as_object_mut() {
                o.insert("payload".to_owned(), inner);
            }
        }
    }
    Ok(v)
}

fn print_info_text(v: &serde_json::Value) {
    outln!(
        "{}\t{}",
        v["path"].as_str().unwrap_or_default(),
        v["format"].as_str().unwrap_or_default()
    );
    out!("{}", v["text"].as_str().unwrap_or_default());
    if v.get("payload").is_some() {
        outln!("");
        print_info_text(&v["payload"]);
    }
}

fn strip_text(v: &mut serde_json::Value) {
    if let Some(o) = v.as_object_mut() {
        o.remove("text");
        if let Some(p) = o.get_mut("payload") {
            strip_text(p);
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode, String> {
    let json = cli.json;
    let (force, budget_opt, more_names) = cli.cmd.common();
    let force = cli.force || force;
    let budget_opt = budget_opt.or(cli.budget);
    for f in cli.names.iter().chain(&more_names) {
        let text = std::fs::read_to_string(f).map_err(|e| format!("{}: {e}", f.display()))?;
        gcformats::bcsv::names::add_list(&text).map_err(|e| format!("{}: {e}", f.display()))?;
    }
    let budget = budget_opt.unwrap_or(output::DEFAULT_BUDGET);
    let policy = |inputs: Vec<PathBuf>| output::Policy {
        force,
        inputs,
        budget,
        ..Default::default()
    };
    // Validators and `examine` read the budget from the options.
    let options = |opt: Vec<(String, String)>, extra: &[(&str, Option<String>)]| {
        let mut o = options(opt, extra);
        o.insert(gcf::BUDGET_KEY.to_owned(), budget.to_string());
        o
    };
    match cli.cmd {
        Cmd::Identify { files } => {
            let files = inputs(files);
            let mut rows = Vec::new();
            let mut failed = false;
            for (f, _) in &files {
                let data = match read(f) {
                    Ok(d) => d,
                    Err(e) => {
                        failed = true;
                        file_error(json, &mut rows, f, e);
                        continue;
                    }
                };
                let d = identify(&data, &f.display().to_string());
                if !json {
                    match &d.detail {
                        Some(detail) => outln!("{}\t{}\t{detail}", f.display(), d.format),
                        None => outln!("{}\t{}", f.display(), d.format),
                    }
                }
                rows.push(serde_json::json!({"path": f.display().to_string(), "format": d.format, "detail": d.detail}));
            }
            if json {
                print_json(&rows)?;
            }
            Ok(code(failed))
        }
        Cmd::Info { file, .. } => {
            let data = read(&file)?;
            let mut spent = gcf::Spent { bytes: 0, budget };
            let name = file.display().to_string();
            let opened = gcf::open_with(&data, &gcf::OpenOptions::named(&name).any())
                .map_err(|e| e.to_string())?;
            let mut v = info_chain(&opened, &name, &mut spent)?;
            if json {
                strip_text(&mut v);
                print_json(&v)?;
            } else {
                print_info_text(&v);
            }
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Check {
            files, wsys, opt, ..
        } => {
            let files = inputs(files);
            let opts = options(opt, &[("wsys", path_opt(wsys))]);
            let companions = gcf::read_companions(&opts)?;
            let mut failed = false;
            let mut rows = Vec::new();
            for (f, listed) in &files {
                let data = match read(f) {
                    Ok(d) => d,
                    Err(e) => {
                        failed = true;
                        file_error(json, &mut rows, f, e);
                        continue;
                    }
                };
                let name = f.display().to_string();
                let file = match gcf::open_with(data, &gcf::OpenOptions::named(&name).any()) {
                    Ok(f) => f,
                    Err(e) => {
                        failed = true;
                        file_error(json, &mut rows, f, e.to_string());
                        continue;
                    }
                };
                let mut found = Vec::new();
                gcf::examine_with(&file, true, &opts, &companions, &mut found);
                unknown_listed_is_kept(&mut found, *listed);
                for e in &found {
                    failed |= e.error.is_some()
                        || matches!(e.roundtrip, RoundTrip::Error { .. } | RoundTrip::Unknown);
                    failed |= e.diagnostics.iter().any(|d| d.severity == Severity::Error);
                    if json {
                        rows.push(serde_json::to_value(e).map_err(|e| e.to_string())?);
                    } else {
                        print_check(e);
                    }
                }
            }
            if json {
                print_json(&rows)?;
            }
            Ok(code(failed))
        }
        Cmd::Roundtrip { files, deep, .. } => {
            let files = inputs(files);
            let mut rows = Vec::new();
            let mut failed = false;
            for (f, listed) in &files {
                let data = match read(f) {
                    Ok(d) => d,
                    Err(e) => {
                        failed = true;
                        file_error(json, &mut rows, f, e);
                        continue;
                    }
                };
                let mut found = Vec::new();
                examine(
                    &f.display().to_string(),
                    &data,
                    deep,
                    &options(Vec::new(), &[]),
                    &mut found,
                );
                unknown_listed_is_kept(&mut found, *listed);
                for e in &found {
                    failed |= !e.roundtrip.is_ok();
                    if json {
                        rows.push(serde_json::to_value(e).map_err(|e| e.to_string())?);
                    } else {
                        outln!("{}\t{}\t{}", e.path, e.format, e.roundtrip);
                    }
                }
            }
            if json {
                print_json(&rows)?;
            }
            Ok(code(failed))
        }
        Cmd::Survey {
            path,
            threads,
            html,
            fail_on,
            facts,
            ..
        } => {
            let report = run_survey(&path, threads, options(Vec::new(), &[]))?;
            if json {
                print_json(&report)?;
            } else {
                out!("{}", report.report(facts));
            }
            if let Some(h) = html {
                policy(vec![path.clone()]).write_file(&h, gcf::report::html(&report).as_bytes())?;
            }
            let failed = match fail_on {
                Some(FailOn::Error) => report.has_errors(),
                Some(FailOn::Diff) => !report.all_identical() || report.has_errors(),
                None => false,
            };
            if report.interrupted {
                return Ok(ExitCode::from(130));
            }
            Ok(code(failed))
        }
        Cmd::Extract { archive, dir, .. } => {
            let data = read(&archive)?;
            let name = archive.display().to_string();
            let x = policy(vec![archive.clone()]).write_folder(&dir, |tmp| {
                gcf::archive::extract_within(&data, &name, tmp, budget, budget_opt.is_some())
            })?;
            for n in &x.notices {
                notice(json, n);
            }
            if json {
                print_json(
                    &serde_json::json!({"archive": name, "dir": dir.display().to_string(), "files": x.files, "compression": x.layers, "notices": x.notices}),
                )?;
            } else {
                outln!(
                    "{name}: extracted {} file(s) to {}{}",
                    x.files,
                    dir.display(),
                    if x.layers.is_empty() {
                        String::new()
                    } else {
                        format!(" (inside {})", x.layers.join(", ").replace('\t', " "))
                    }
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Pack {
            dir,
            archive,
            add,
            yaz0,
            lowercase,
            sync_ids,
            follow_symlinks,
            opt,
            ..
        } => {
            let flag = |b: bool| b.then(|| "true".to_owned());
            let opts = options(
                opt,
                &[
                    ("yaz0", yaz0),
                    ("lowercase", flag(lowercase)),
                    ("sync-ids", flag(sync_ids)),
                    ("add", flag(add)),
                ],
            );
            let mut pol = policy(vec![dir.clone()]);
            pol.follow_symlinks = follow_symlinks;
            pol.check_output(&archive, false)?;
            let packed = gcf::archive::pack(&dir, &archive, &opts, &pol)?;
            for n in &packed.notices {
                notice(json, n);
            }
            gcf::write_checked(&pol, &archive, &packed.bytes)?;
            let to_stdout = output::is_std(&archive);
            if json && !to_stdout {
                print_json(
                    &serde_json::json!({"archive": archive.display().to_string(), "bytes": packed.bytes.len(), "notices": packed.notices}),
                )?;
            } else if !to_stdout {
                outln!("{}: {} bytes", archive.display(), packed.bytes.len());
            }
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Replace {
            archive,
            member,
            file,
            out,
            ..
        } => {
            let data = read(&archive)?;
            let new = read(&file)?;
            let bytes = gcf::archive::replace(&data, &member, new, &file.display().to_string())
                .map_err(|e| format!("{}: {e}", archive.display()))?;
            // In place is what `replace` is for: no --force needed, still temp + rename.
            let (target, pol) = match &out {
                Some(o) => (o.clone(), policy(vec![archive.clone(), file.clone()])),
                None => (
                    archive.clone(),
                    output::Policy {
                        force: true,
                        ..Default::default()
                    },
                ),
            };
            gcf::write_checked(&pol, &target, &bytes)?;
            if !output::is_std(&target) {
                if json {
                    print_json(
                        &serde_json::json!({"archive": target.display().to_string(), "member": member, "bytes": bytes.len()}),
                    )?;
                } else {
                    outln!(
                        "{}: replaced {member} ({} bytes)",
                        target.display(),
                        bytes.len()
                    );
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Compare { a, b } => {
            let (da, db) = (read(&a)?, read(&b)?);
            let f = registered(&da, &a)?;
            let text = f
                .compare(&da, &db)
                .ok_or_else(|| {
                    format!(
                        "{}: {} files have no layout comparison",
                        a.display(),
                        f.name()
                    )
                })?
                .map_err(|e| format!("{} vs {}: {e}", a.display(), b.display()))?;
            if json {
                let lines: Vec<&str> = text.lines().collect();
                print_json(
                    &serde_json::json!({"a": a.display().to_string(), "b": b.display().to_string(), "lines": lines}),
                )?;
            } else {
                out!("{text}");
            }
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Rebuild {
            input,
            output,
            order,
            opt,
            ..
        } => {
            let data = read(&input)?;
            let f = registered(&data, &input)?;
            let (bytes, findings) = f
                .rebuild(&data, &options(opt, &[("order", order)]))
                .ok_or_else(|| format!("{}: {} files have no rebuild", input.display(), f.name()))?
                .map_err(|e| format!("{}: {e}", input.display()))?;
            for d in &findings {
                eprintln!("{}\t{d}", output.display());
            }
            gcf::write_checked(&policy(vec![input.clone()]), &output, &bytes)?;
            if output::is_std(&output) {
                return Ok(ExitCode::SUCCESS);
            }
            if json {
                print_json(
                    &serde_json::json!({"input": input.display().to_string(), "output": output.display().to_string(), "bytes": bytes.len()}),
                )?;
            } else {
                outln!(
                    "{} -> {} ({} bytes)",
                    input.display(),
                    output.display(),
                    bytes.len()
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Render {
            layout,
            output,
            anim,
            frame,
            nearest,
            font,
            ..
        } => {
            let mut inputs = vec![gcf::render::input_file(&layout)];
            inputs.extend(anim.as_deref().map(gcf::render::input_file));
            inputs.extend(font.iter().map(|f| gcf::render::input_file(f)));
            let pol = policy(inputs);
            pol.check_output(&output, false)?;
            let made =
                gcf::render::render_png(&layout, anim.as_deref(), &font, frame, nearest, budget)?;
            gcf::write_checked(&pol, &output, &made.png)?;
            if json {
                let mut v = serde_json::to_value(&made).map_err(|e| e.to_string())?;
                if let Some(o) = v.as_object_mut() {
                    o.insert("input".to_owned(), layout.clone().into());
                    o.insert("output".to_owned(), output.display().to_string().into());
                }
                print_json(&v)?;
            } else if !output::is_std(&output) {
                outln!(
                    "{layout} -> {}: {}x{}, {} panes drawn in {:.1} ms",
                    output.display(),
                    made.size[0],
                    made.size[1],
                    made.drawn,
                    made.millis
                );
                if let Some(n) = made.animated {
                    outln!("  animation at frame {frame}: {n} values");
                }
                for u in &made.unbound {
                    outln!("  animation content not in the layout: {u}");
                }
                for m in &made.missing_textures {
                    outln!("  texture not found: {m}");
                }
                for f in &made.fonts {
                    outln!("  font: {f}");
                }
                for t in &made.text_without_font {
                    outln!("  no font, outline drawn: {t}");
                }
                if made.exhausted {
                    outln!("  drawing stopped at the work limit: the image is incomplete");
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Convert {
            input,
            output,
            format,
            dat,
            anim,
            opt,
            ..
        } => {
            let anim = (!anim.is_empty()).then(|| {
                let paths: Vec<String> = anim.iter().map(|p| p.display().to_string()).collect();
                paths.join("\n")
            });
            let opts = options(
                opt,
                &[("format", format), ("dat", path_opt(dat)), ("anim", anim)],
            );
            if output::is_std(&output) {
                return Err(
                    "convert writes a file or folder chosen by its extension; `-` works as the input only"
                        .to_owned(),
                );
            }
            let pol = policy(vec![input.clone()]);
            pol.check_output(&output, true)?;
            let none = || {
                let what = match std::fs::read(&input)
                    .ok()
                    .map(|d| identify(&d, &input.to_string_lossy()))
                {
                    Some(d) => match d.detail {
                        Some(detail) => format!(" ({} holding {detail})", d.format),
                        None => format!(" ({})", d.format),
                    },
                    None => String::new(),
                };
                format!(
                    "no conversion from {}{what} to {}\n{}",
                    input.display(),
                    output.display(),
                    gcf::conversions_help()
                )
            };
            if input.is_dir() {
                // A folder input (e.g. PNGs and a manifest back to a .tpl) is packed.
                let packed = gcf::archive::pack(&input, &output, &opts, &pol).map_err(|e| {
                    if e.contains("no format packs") {
                        none()
                    } else {
                        e
                    }
                })?;
                gcf::write_checked(&pol, &output, &packed.bytes)?;
            } else {
                let data = gcf::self_contained(&input, read(&input)?)?;
                let (from, to) = (input.to_string_lossy(), output.to_string_lossy());
                let files = gcf::read_companions_of(
                    &opts,
                    &gcformats::companion_keys_for(&data, &from, &to),
                )?;
                let mut notices = gcformats::Notices::new();
                let made = gcformats::convert_noting(
                    &gcformats::Conversion {
                        input: &data,
                        from: &from,
                        to: &to,
                        opts: &opts,
                        companions: &files,
                        limits: &gcio::Limits::default(),
                    },
                    &mut notices,
                )
                .map_err(|e| format!("{}: {e}", input.display()))?
                .ok_or_else(none)?;
                for n in &notices {
                    notice(json, n);
                }
                gcf::write_outputs(&pol, &output, &made)?;
            }
            if json {
                print_json(
                    &serde_json::json!({"input": input.display().to_string(), "output": output.display().to_string()}),
                )?;
            } else {
                outln!("{} -> {}", input.display(), output.display());
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Runs the survey with a progress bar on a terminal and Ctrl-C stopping it with a partial report.
fn run_survey(
    path: &Path,
    threads: Option<usize>,
    options: Options,
) -> Result<survey::Survey, String> {
    use std::io::IsTerminal;
    use std::sync::atomic::Ordering;
    let so = std::sync::Arc::new(survey::SurveyOptions {
        threads,
        options,
        ..Default::default()
    });
    let on_stop = std::sync::Arc::clone(&so);
    // Ignored if a handler is already set (only one per process); the survey then just runs to the end.
    let _ = ctrlc::set_handler(move || on_stop.stop.store(true, Ordering::Relaxed));
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new_spinner();
        bar.enable_steady_tick(std::time::Duration::from_millis(120));
        bar
    });
    let report = std::thread::scope(|s| {
        let work = s.spawn(|| survey::survey(path, &so));
        while !work.is_finished() {
            if let Some(bar) = &bar {
                let files = so.progress.files.load(Ordering::Relaxed);
                let bytes = so.progress.bytes.load(Ordering::Relaxed);
                bar.set_message(format!("{files} files, {:.1} MB", bytes as f64 / 1e6));
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        work.join().map_err(|_| "survey thread panicked".to_owned())
    })?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    report.map_err(|e| format!("{}: {e}", path.display()))
}

fn print_check(e: &Examined) {
    if let Some(err) = &e.error {
        outln!("{}\terror\tPARSE\t-\t{err}", e.path);
    }
    match &e.roundtrip {
        RoundTrip::Error { message } if e.error.is_none() => {
            outln!("{}\terror\tPARSE\t-\t{message}", e.path)
        }
        RoundTrip::Unknown => outln!("{}\terror\tUNKNOWN\t-\tunknown format", e.path),
        _ => {}
    }
    for d in &e.diagnostics {
        outln!("{}\t{d}", e.path);
    }
}
