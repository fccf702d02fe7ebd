//! The `gcformats` Python module: the facade's one door ([`gcformats::open`]) for Python tools
//! and Blender add-ons. Every operation goes through the facade's functions (`open`, `convert`,
//! `archive::replace`, `archive::unpack`, `archive::pack`, `read_back`), so Python sees exactly
//! what `gcf` does; this crate only turns values and errors into Python ones.
//!
//! The Python package (`crates/py/python/gcformats`) re-exports these classes and adds the parts
//! that are plain Python: `pack` reads a folder, `Primitive` views a glb's vertex data.
#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};

use gcformats::bcsv::{self, FieldType, Table, Value};
use gcformats::gcio::{self, Limits};
use gcformats::{Companions, Conversion, OpenOptions, Opened, Options};
use pyo3::create_exception;
use pyo3::exceptions::{PyIndexError, PyKeyError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};

create_exception!(
    gcformats,
    FormatError,
    PyValueError,
    "A file that does not read as its format, or an edit it refuses. `offset` is the file offset \
     of the problem (None when it has none) and `breadcrumb` the structures being read, outermost \
     first."
);

/// A [`FormatError`] from a facade error, with its offset and breadcrumb.
fn format_error(py: Python<'_>, e: &gcio::Error) -> PyErr {
    let err = FormatError::new_err(e.to_string());
    let value = err.value(py);
    let crumbs: Vec<&str> = e.breadcrumb().collect();
    // Setting attributes on a fresh exception instance cannot fail; if it did, the message stays.
    let _ = value.setattr("offset", e.offset());
    let _ = value.setattr("breadcrumb", crumbs);
    err
}

/// A [`FormatError`] from a facade error that is a message only (archive edits, packing).
fn message_error(py: Python<'_>, message: String) -> PyErr {
    format_error(py, &gcio::Error::message(message))
}

/// How many bytes `extract` may write: the facade's expansion factor bounds an archive's members
/// too, so aliased entries cannot turn a small archive into gigabytes.
const EXTRACT_BUDGET: u64 = 1 << 30;

/// A file opened through the registry: any format, through its compression layers. Tables are
/// editable (`t[row, "name"] = value`) and archives too (`arc["path"] = data`); `to_bytes()`
/// writes the result.
#[pyclass(module = "gcformats", name = "Opened")]
struct PyOpened {
    file: Opened<'static>,
    /// The parsed table of a BCSV file, once asked for; `edited` once a cell changed.
    table: Option<Table>,
    edited: bool,
    /// The decoded payload of a compressed file, once asked for: its members are read from it
    /// rather than by decoding the file again for each.
    payload: Option<Opened<'static>>,
}

/// One validator finding: `severity` (`"error"`, `"warning"`, `"info"`), the rule id catalogued
/// in the project's docs/rules, the file offset (None when the finding has no place) and what is
/// wrong.
#[pyclass(module = "gcformats", name = "Finding", frozen, get_all)]
struct Finding {
    severity: String,
    rule: String,
    offset: Option<u64>,
    message: String,
}

#[pymethods]
impl Finding {
    fn __repr__(&self) -> String {
        let at = self
            .offset
            .map(|o| format!(" at {o:#x}"))
            .unwrap_or_default();
        format!(
            "<Finding {} {}{at}: {}>",
            self.severity, self.rule, self.message
        )
    }
}

/// One column of a table: its name hash, name (`[XXXXXXXX]` when the hash is not a known name),
/// type (`LONG`, `STRING`, `FLOAT`, `LONG_2`, `SHORT`, `CHAR`, `STRING_OFFSET`), the mask and
/// shift that pack its bits, and its byte offset in a row.
#[pyclass(module = "gcformats", name = "Field", frozen, get_all)]
struct PyField {
    hash: u32,
    name: String,
    r#type: String,
    mask: u32,
    shift: u8,
    offset: u16,
}

#[pymethods]
impl PyField {
    fn __repr__(&self) -> String {
        format!(
            "<Field {} {} mask={:#010x} shift={}>",
            self.name, self.r#type, self.mask, self.shift
        )
    }
}

/// The bytes of a Python `bytes`-like object or a path (`str` or `os.PathLike`), with the name to
/// open them under.
enum Input {
    Bytes(Vec<u8>),
    Path(PathBuf),
}

fn input(obj: &Bound<'_, PyAny>) -> PyResult<Input> {
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(Input::Bytes(b.as_bytes().to_vec()));
    }
    if let Ok(p) = obj.extract::<PathBuf>() {
        return Ok(Input::Path(p));
    }
    if let Ok(b) = obj.extract::<Vec<u8>>() {
        return Ok(Input::Bytes(b));
    }
    Err(PyTypeError::new_err(
        "expected bytes, a bytearray or a path",
    ))
}

/// Opens `bytes` under `name`: a known format, or with `any`, any bytes (an archive member no
/// format claims).
fn open_bytes(py: Python<'_>, bytes: Vec<u8>, name: &str, any: bool) -> PyResult<PyOpened> {
    let mut opts = OpenOptions::named(name);
    opts.any = any;
    let file = gcformats::open_with(bytes, &opts).map_err(|e| format_error(py, &e))?;
    Ok(PyOpened::new(file))
}

/// Opens a file (a path) or bytes as whatever format it is, through Yaz0/Yay0. `name` gives
/// bytes a file name (formats without a signature, BTI and BMS, are known by it). Raises
/// `FormatError` when no format recognises the file.
#[pyfunction]
#[pyo3(signature = (source, name = None))]
fn open(py: Python<'_>, source: &Bound<'_, PyAny>, name: Option<String>) -> PyResult<PyOpened> {
    match input(source)? {
        Input::Bytes(b) => open_bytes(py, b, name.as_deref().unwrap_or(""), false),
        Input::Path(p) => {
            let data =
                std::fs::read(&p).map_err(|e| format_error(py, &gcformats::io_error(&p, e)))?;
            let name = name.unwrap_or_else(|| p.display().to_string());
            open_bytes(py, data, &name, false)
        }
    }
}

/// A cell as Python sees it: integers as the game reads them (signed where it does), floats,
/// strings in the table's encoding; the same values `gcf convert` writes to CSV and JSON.
fn cell(py: Python<'_>, field: &bcsv::Field, value: &Value, table: &Table) -> PyResult<Py<PyAny>> {
    Ok(match value {
        Value::Float(v) => f64::from(*v).into_pyobject(py)?.into_any().unbind(),
        Value::InlineString(_) | Value::StringOffset(_) => {
            bcsv::cell_text(field, value, table.encoding)
                .into_pyobject(py)?
                .into_any()
                .unbind()
        }
        v => bcsv::cell_int(field, v.bits().unwrap_or(0))
            .into_pyobject(py)?
            .into_any()
            .unbind(),
    })
}

/// The value a Python object stands for in `field`: an `int` within the field's width (signed or
/// unsigned), a `float`, a `str` in the table's encoding. The table's `set` then checks the type
/// and the field's mask.
fn value_for(field: &bcsv::Field, table: &Table, obj: &Bound<'_, PyAny>) -> PyResult<Value> {
    let int = |lo: i64, hi: i64| -> PyResult<i64> {
        let v: i64 = obj.extract()?;
        if v < lo || v > hi {
            return Err(PyValueError::new_err(format!(
                "{v} does not fit a {} field",
                field.kind
            )));
        }
        Ok(v)
    };
    let text = || -> PyResult<Vec<u8>> {
        let s: String = obj.extract()?;
        table.encoding.from_text(&s).map_err(PyValueError::new_err)
    };
    Ok(match field.kind {
        FieldType::LONG => Value::Long(int(i32::MIN.into(), u32::MAX.into())? as i32),
        FieldType::LONG_2 => Value::Long2(int(i32::MIN.into(), u32::MAX.into())? as u32),
        FieldType::SHORT => Value::Short(int(i16::MIN.into(), u16::MAX.into())? as i16),
        FieldType::CHAR => Value::Char(int(i8::MIN.into(), u8::MAX.into())? as i8),
        FieldType::FLOAT => Value::Float(obj.extract::<f64>()? as f32),
        FieldType::STRING => Value::inline(&text()?)
            .ok_or_else(|| PyValueError::new_err("an inline string holds at most 32 bytes"))?,
        FieldType::STRING_OFFSET => Value::StringOffset(bcsv::Str::new(&text()?)),
        other => {
            return Err(PyTypeError::new_err(format!(
                "{other} fields cannot be set"
            )));
        }
    })
}

/// Options and companion files from `**options`: `bytes` values are companion files (the model
/// an animation binds to: `model=…`), anything else an option in its `str()` form.
fn options(kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<(Options, Companions)> {
    let mut opts = Options::new();
    let mut files = Companions::new();
    for (k, v) in kwargs.into_iter().flatten() {
        let key: String = k.extract()?;
        if let Ok(b) = v.cast::<PyBytes>() {
            files.insert(key, b.as_bytes().to_vec());
        } else {
            opts.insert(key, v.str()?.to_string());
        }
    }
    Ok((opts, files))
}

impl PyOpened {
    fn new(file: Opened<'static>) -> Self {
        PyOpened {
            file,
            table: None,
            edited: false,
            payload: None,
        }
    }

    /// The file's bytes as they are now: the edited table written, else the file as opened.
    fn current(&self, py: Python<'_>) -> PyResult<Vec<u8>> {
        match (&self.table, self.edited) {
            (Some(t), true) => t.write().map_err(|e| format_error(py, &e)),
            _ => Ok(self.file.bytes().to_vec()),
        }
    }

    /// Calls `f` with the file as it is now: as opened, or reopened with its edits written.
    fn with_file<R>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&Opened<'_>) -> PyResult<R>,
    ) -> PyResult<R> {
        if self.edited {
            let opts = OpenOptions::named(self.file.name()).any();
            let file =
                gcformats::open_with(self.current(py)?, &opts).map_err(|e| format_error(py, &e))?;
            f(&file)
        } else {
            f(&self.file)
        }
    }

    /// The file, or the payload of a compressed one (decoded once); `None` for an empty stream.
    fn level(&mut self, py: Python<'_>) -> PyResult<Option<&Opened<'static>>> {
        if !self.file.is_compressed() {
            return Ok(Some(&self.file));
        }
        if self.payload.is_none() {
            let members = self.file.members().map_err(|e| format_error(py, &e))?;
            self.payload = members.into_iter().next();
        }
        Ok(self.payload.as_ref())
    }

    /// The table of a BCSV file (or of a compressed one's payload), parsed once.
    fn table(&mut self, py: Python<'_>) -> PyResult<&mut Table> {
        if self.table.is_none() {
            let name = self.file.name().to_owned();
            let file = self
                .level(py)?
                .ok_or_else(|| PyTypeError::new_err("an empty compressed stream"))?;
            if file.format() != "bcsv" {
                return Err(PyTypeError::new_err(format!(
                    "{name} is {}, not a BCSV table",
                    file.format()
                )));
            }
            let t = Table::parse_with(file.bytes(), &Limits::default())
                .map_err(|e| format_error(py, &e))?;
            self.table = Some(t);
        }
        self.table
            .as_mut()
            .ok_or_else(|| PyTypeError::new_err("not a table"))
    }

    fn get_cell(&mut self, py: Python<'_>, row: usize, name: &str) -> PyResult<Py<PyAny>> {
        let t = self.table(py)?;
        let i = t
            .field_index(name)
            .ok_or_else(|| PyKeyError::new_err(format!("no field {name:?}")))?;
        let (field, value) = t
            .fields
            .get(i)
            .zip(t.row(row).and_then(|r| r.get(i)))
            .ok_or_else(|| PyIndexError::new_err(format!("no row {row}")))?;
        cell(py, field, value, t)
    }

    fn set_cell(
        &mut self,
        py: Python<'_>,
        row: usize,
        name: &str,
        obj: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let t = self.table(py)?;
        let field = t
            .field_index(name)
            .and_then(|i| t.fields.get(i).copied())
            .ok_or_else(|| PyKeyError::new_err(format!("no field {name:?}")))?;
        if row >= t.len() {
            return Err(PyIndexError::new_err(format!(
                "no row {row} (the table has {})",
                t.len()
            )));
        }
        let value = value_for(&field, t, obj)?;
        t.set(row, field.hash, value)
            .map_err(|e| format_error(py, &e))?;
        self.edited = true;
        Ok(())
    }

    /// Replaces member `path` with `data` named `name` (`archive::replace`, as `gcf replace`).
    fn replace(&mut self, py: Python<'_>, path: &str, data: Vec<u8>, name: &str) -> PyResult<()> {
        let arc = self.current(py)?;
        let bytes = gcformats::archive::replace(&arc, path, data, name)
            .map_err(|e| message_error(py, format!("{}: {path}: {e}", self.file.name())))?;
        gcformats::read_back(self.file.name(), &bytes, &Limits::default())
            .map_err(|e| format_error(py, &e))?;
        *self = open_bytes(py, bytes, self.file.name(), false)?;
        Ok(())
    }

    /// The conversion of the file to `to` (a file name), as `gcf convert` makes it and checked to
    /// read back.
    fn convert_to(
        &self,
        py: Python<'_>,
        to: &str,
        opts: &Options,
        files: &Companions,
    ) -> PyResult<gcformats::Outputs> {
        let data = self.current(py)?;
        let limits = Limits::default();
        let job = Conversion {
            input: &data,
            from: self.file.name(),
            to,
            opts,
            companions: files,
            limits: &limits,
        };
        let made = gcformats::convert(&job)
            .map_err(|e| format_error(py, &e))?
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "no conversion from {} ({}) to {to}",
                    self.file.name(),
                    self.file.format()
                ))
            })?;
        gcformats::read_back_all(&made, &limits).map_err(|e| format_error(py, &e))?;
        Ok(made)
    }

    /// The output name a conversion to `ext` (`"csv"`, `".glb"` or a whole file name) targets.
    fn target(&self, ext: &str) -> String {
        if ext.contains('.') && !ext.starts_with('.') {
            return ext.to_owned();
        }
        let stem = gcformats::file_stem(self.file.name());
        let stem = if stem.is_empty() { "file" } else { &stem };
        format!("{stem}.{}", ext.trim_start_matches('.'))
    }
}

#[pymethods]
impl PyOpened {
    /// The format's registry name (`"yaz0"`, `"rarc"`, `"bcsv"`, `"j3d-bmd"`, …).
    #[getter]
    fn format(&self) -> &'static str {
        self.file.format()
    }

    /// What a container holds or a variant (`"rarc"` inside a Yaz0 stream), or None.
    #[getter]
    fn detail(&self) -> Option<String> {
        self.file.detail().map(str::to_owned)
    }

    /// The name (path) the file was opened under.
    #[getter]
    fn name(&self) -> String {
        self.file.name().to_owned()
    }

    fn __repr__(&self) -> String {
        let detail = self
            .file
            .detail()
            .map(|d| format!(" of {d}"))
            .unwrap_or_default();
        format!(
            "<gcformats.Opened {:?}: {}{detail}, {} bytes>",
            self.file.name(),
            self.file.format(),
            self.file.bytes().len()
        )
    }

    /// The file's bytes: an unedited file as its model writes it back (byte for byte the file
    /// opened), an edited one with its edits.
    fn to_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let bytes = if self.edited {
            self.current(py)?
        } else {
            self.file.rewrite().map_err(|e| format_error(py, &e))?.bytes
        };
        Ok(PyBytes::new(py, &bytes))
    }

    /// The validator's findings (`gcf check`): a list of `Finding`, empty for a clean file.
    fn check(&self, py: Python<'_>) -> PyResult<Vec<Finding>> {
        let found = self.with_file(py, |f| f.validate().map_err(|e| format_error(py, &e)))?;
        Ok(found
            .into_iter()
            .map(|d| Finding {
                severity: d.severity.to_string(),
                rule: d.rule,
                offset: d.offset,
                message: d.message,
            })
            .collect())
    }

    /// The summary `gcf info --json` prints, as a dict.
    fn info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let info = self.with_file(py, |f| f.info().map_err(|e| format_error(py, &e)))?;
        py.import("json")?
            .call_method1("loads", (info.json.to_string(),))
    }

    /// The file converted as `gcf convert` does, to `ext` (`"csv"`, `"json"`, `"glb"`, `"png"`, …,
    /// or a whole file name): its bytes, or a dict of file name → bytes when the conversion makes
    /// several files (an OBJ with its MTL and textures). `options` are `gcf convert -o` options;
    /// `bytes` values are companion files (`model=open("m.bmd","rb").read()`).
    #[pyo3(signature = (ext, **options))]
    fn convert<'py>(
        &self,
        py: Python<'py>,
        ext: &str,
        options: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (opts, files) = self::options(options)?;
        let to = self.target(ext);
        let made = self.convert_to(py, &to, &opts, &files)?;
        let main = gcformats::file_name(&to);
        if let [(_, bytes)] = made.as_slice() {
            return Ok(PyBytes::new(py, bytes).into_any());
        }
        let dict = PyDict::new(py);
        for (path, bytes) in &made {
            let key = if *path == main {
                to.as_str()
            } else {
                path.as_str()
            };
            dict.set_item(key, PyBytes::new(py, bytes))?;
        }
        Ok(dict.into_any())
    }

    /// A model (J3D, HSD) as a binary glTF (`.glb`) file, e.g. for
    /// `bpy.ops.import_scene.gltf`.
    fn to_glb<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let made = self.convert_to(py, &self.target("glb"), &Options::new(), &Companions::new())?;
        let bytes = made.into_iter().next().map(|(_, b)| b).unwrap_or_default();
        Ok(PyBytes::new(py, &bytes))
    }

    /// A model's vertex data, read from its glb export: a list of `Primitive` with
    /// `positions`, `normals`, `uvs` and `indices` as NumPy arrays when NumPy is installed,
    /// memoryviews (the buffer protocol) without it.
    fn primitives<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let glb = self.to_glb(py)?;
        py.import("gcformats._mesh")?
            .call_method1("primitives", (glb,))
    }

    /// The member paths of an archive (through its compression layers), `/`-separated; `[]` for
    /// a file that is not a container.
    fn members(&mut self, py: Python<'_>) -> PyResult<Vec<String>> {
        let names = |level: Option<&Opened<'_>>| -> PyResult<Vec<String>> {
            let Some(level) = level else {
                return Ok(Vec::new());
            };
            Ok(level
                .members()
                .map_err(|e| format_error(py, &e))?
                .iter()
                .map(|m| m.name().to_owned())
                .collect())
        };
        if !self.edited {
            return names(self.level(py)?);
        }
        self.with_file(py, |file| {
            if !file.is_compressed() {
                return names(Some(file));
            }
            let payload = file.members().map_err(|e| format_error(py, &e))?;
            names(payload.first())
        })
    }

    /// `arc["dir/file"]`: an archive member, opened (`:` separates nested archives,
    /// `"a.arc:dir/file"`); `table[row, "name"]`: a table cell.
    fn __getitem__(&mut self, py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        if let Ok((row, name)) = key.extract::<(usize, String)>() {
            return self.get_cell(py, row, &name);
        }
        let path: String = key
            .extract()
            .map_err(|_| PyTypeError::new_err("key: a member path or (row, field name)"))?;
        if !self.edited
            && !path.contains(':')
            && let Some(level) = self.level(py)?
        {
            let members = level.members().map_err(|e| format_error(py, &e))?;
            if let Some(m) = members.into_iter().find(|m| m.name() == path) {
                return Ok(PyOpened::new(m).into_pyobject(py)?.into_any().unbind());
            }
        }
        let arc = self.current(py)?;
        let bytes = gcformats::archive::member(&arc, &path)
            .map_err(|e| PyKeyError::new_err(format!("{}: {e}", self.file.name())))?;
        let name = path.rsplit(':').next().unwrap_or(&path).to_owned();
        Ok(open_bytes(py, bytes, &name, true)?
            .into_pyobject(py)?
            .into_any()
            .unbind())
    }

    /// `arc["dir/file"] = data`: replaces a member as `gcf replace` does (`data` is bytes or an
    /// `Opened`, e.g. an edited table; it must be what the member is, and a compressed member is
    /// compressed again). `table[row, "name"] = value`: sets a cell; the value must fit the field
    /// (its type, width and mask).
    fn __setitem__(
        &mut self,
        py: Python<'_>,
        key: &Bound<'_, PyAny>,
        value: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        if let Ok((row, name)) = key.extract::<(usize, String)>() {
            return self.set_cell(py, row, &name, value);
        }
        let path: String = key
            .extract()
            .map_err(|_| PyTypeError::new_err("key: a member path or (row, field name)"))?;
        let here = path.rsplit(':').next().unwrap_or(&path).to_owned();
        let (data, name) = match value.cast::<PyOpened>() {
            Ok(o) => {
                let o = o.borrow();
                (o.current(py)?, gcformats::file_name(o.file.name()))
            }
            Err(_) => match input(value)? {
                Input::Bytes(b) => (b, here),
                Input::Path(p) => {
                    let b = std::fs::read(&p)
                        .map_err(|e| format_error(py, &gcformats::io_error(&p, e)))?;
                    (b, p.display().to_string())
                }
            },
        };
        self.replace(py, &path, data, &name)
    }

    /// The table's columns (BCSV), a list of `Field`.
    #[getter]
    fn fields(&mut self, py: Python<'_>) -> PyResult<Vec<PyField>> {
        Ok(self
            .table(py)?
            .fields
            .iter()
            .map(|f| PyField {
                hash: f.hash,
                name: bcsv::display_name(f.hash),
                r#type: f.kind.to_string(),
                mask: f.mask,
                shift: f.shift,
                offset: f.offset,
            })
            .collect())
    }

    /// The table's rows (BCSV): a list of lists in field order, of `int`, `float` and `str`
    /// (the values `gcf convert` writes to CSV and JSON). A copy: cells are set with
    /// `t[row, "name"] = value`.
    #[getter]
    fn rows<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let t = self.table(py)?;
        let rows = PyList::empty(py);
        for r in t.rows() {
            let cells: Vec<Py<PyAny>> = t
                .fields
                .iter()
                .zip(r)
                .map(|(f, v)| cell(py, f, v, t))
                .collect::<PyResult<_>>()?;
            rows.append(PyList::new(py, cells)?)?;
        }
        Ok(rows)
    }

    /// Writes an archive's members into the folder `dir` (new or empty) as `gcf extract` does,
    /// with the manifest `gcformats.pack` packs the same archive back from. Returns the paths
    /// written.
    fn extract(&self, py: Python<'_>, dir: PathBuf) -> PyResult<Vec<String>> {
        let data = self.current(py)?;
        let mut spent = 0u64;
        let u = gcformats::archive::unpack(
            &data,
            self.file.name(),
            EXTRACT_BUDGET,
            Some(gcformats::archive::MAX_EXPANSION),
            |n| {
                spent = spent.saturating_add(n);
                if spent > EXTRACT_BUDGET {
                    Err(format!("more than {EXTRACT_BUDGET} bytes to extract"))
                } else {
                    Ok(())
                }
            },
        )
        .map_err(|e| message_error(py, format!("{}: {e}", self.file.name())))?;
        let io = |p: &Path, e: std::io::Error| format_error(py, &gcformats::io_error(p, e));
        std::fs::create_dir_all(&dir).map_err(|e| io(&dir, e))?;
        if std::fs::read_dir(&dir)
            .map_err(|e| io(&dir, e))?
            .next()
            .is_some()
        {
            return Err(PyValueError::new_err(format!(
                "{}: not empty",
                dir.display()
            )));
        }
        for d in &u.dirs {
            let p = dir.join(d);
            std::fs::create_dir(&p).map_err(|e| io(&p, e))?;
        }
        let manifest = u.manifest.map(|m| {
            (
                gcformats::rarc::manifest::MANIFEST.to_owned(),
                m.into_bytes(),
            )
        });
        let mut written = Vec::new();
        for (path, bytes) in u.files.iter().chain(manifest.iter()) {
            use std::io::Write;
            let p = dir.join(path);
            std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&p)
                .and_then(|mut f| f.write_all(bytes))
                .map_err(|e| io(&p, e))?;
            written.push(path.clone());
        }
        Ok(written)
    }
}

/// Packs a folder read into memory (`files`: path → bytes, `dirs`: every sub-folder, parents
/// first) for the output named `out`, as `gcf pack` does; `label` names the folder in errors and
/// `root` is a new archive's root name. The Python `gcformats.pack` reads the folder.
#[pyfunction]
#[pyo3(signature = (label, root, files, dirs, out, **options))]
fn _pack<'py>(
    py: Python<'py>,
    label: &str,
    root: &str,
    files: std::collections::BTreeMap<String, Vec<u8>>,
    dirs: Vec<String>,
    out: &str,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyTuple>> {
    let (opts, _) = self::options(options)?;
    let folder = gcformats::Folder { files, dirs };
    let packed = gcformats::archive::pack(label, root, folder, Path::new(out), &opts)
        .map_err(|e| message_error(py, e))?;
    gcformats::read_back(out, &packed.bytes, &Limits::default())
        .map_err(|e| format_error(py, &e))?;
    (PyBytes::new(py, &packed.bytes), packed.notices).into_pyobject(py)
}

/// The extension module `gcformats._gcformats`, re-exported by the `gcformats` package.
#[pymodule]
fn _gcformats(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(open, m)?)?;
    m.add_function(wrap_pyfunction!(_pack, m)?)?;
    m.add_class::<PyOpened>()?;
    m.add_class::<Finding>()?;
    m.add_class::<PyField>()?;
    m.add("FormatError", m.py().get_type::<FormatError>())?;
    Ok(())
}
