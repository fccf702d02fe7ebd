"""The wheel on the real game files and on files built here: archives, tables, models, errors."""

from __future__ import annotations

import json
import math
import struct

import pytest

import gcformats
from conftest import CORPUS, real_files


def test_open_refuses_unknown_bytes_with_a_format_error():
    with pytest.raises(gcformats.FormatError) as e:
        gcformats.open(b"not a game file")
    assert e.value.offset is None
    assert isinstance(e.value.breadcrumb, list)


def test_a_broken_archive_names_offset_and_structure():
    with pytest.raises(gcformats.FormatError) as e:
        gcformats.open(b"RARC" + b"\0" * 28).members()
    assert e.value.offset is not None
    assert str(e.value)


def test_every_real_archive_reads_and_writes_back(archives):
    for path, arc in archives:
        data = path.read_bytes()
        members = arc.members()
        assert members, path
        assert arc.to_bytes() == data, path
        for f in arc.check():
            assert f.severity in ("error", "warning", "info") and f.rule
        for m in members:
            assert arc[m].name == m
    print(f"{len(archives)} real archives")


def _same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, str):
        return math.isnan(a) or math.isinf(a)  # JSON writes non-finite floats as their bits
    return a == b


def test_every_table_equals_its_json_and_csv_conversion(tables):
    for where, t in tables:
        doc = json.loads(t.convert("json"))
        assert [f.name for f in t.fields] == [f["name"] for f in doc["fields"]], where
        rows = t.rows
        assert len(rows) == len(doc["rows"]), where
        for got, want in zip(rows, doc["rows"]):
            assert all(_same(a, b) for a, b in zip(got, want)), (where, got, want)
        csv = t.convert("csv").decode("utf-8")
        assert csv.count("\n") >= len(rows), where
    print(f"{len(tables)} real tables")


def _data_offset(table: bytes) -> tuple[int, int]:
    """(first row's offset, row size) of a big-endian BCSV table."""
    _rows, _fields, data, entry = struct.unpack_from(">4I", table, 0)
    return data, entry


def _editable(tables):
    for where, t in tables:
        for f in t.fields:
            if f.type == "LONG" and f.mask == 0xFFFFFFFF and t.rows:
                return where, t, f
    pytest.skip("no table with a plain LONG column")


def test_a_table_edit_changes_only_its_bytes(tables):
    where, t, field = _editable(tables)
    before = t.to_bytes()
    i = [f.name for f in t.fields].index(field.name)
    old = t.rows[0][i]
    t[0, field.name] = old + 1 if old < 2**31 - 1 else old - 1
    after = t.to_bytes()
    assert len(after) == len(before)
    start, _ = _data_offset(before)
    at = start + field.offset
    changed = [k for k in range(len(before)) if before[k] != after[k]]
    assert changed and all(at <= k < at + 4 for k in changed), (where, changed)
    assert t[0, field.name] != old
    assert gcformats.open(after).rows[0][i] == t.rows[0][i]
    t[0, field.name] = old
    assert t.to_bytes() == before


def test_an_edited_table_goes_back_into_its_archive(archives):
    path, arc = next(
        ((p, a) for p, a in archives if any(arc_m.endswith(".bcsv") for arc_m in a.members())),
        (None, None),
    )
    if arc is None:
        pytest.skip("no archive with a table")
    arc = gcformats.open(path)
    member = next(m for m in arc.members() if m.endswith(".bcsv") and arc[m].rows)
    others = {m: arc[m].to_bytes() for m in arc.members() if m != member}
    t = arc[member]
    f = next((f for f in t.fields if f.type in ("LONG", "SHORT", "CHAR", "LONG_2")), None)
    if f is None:
        pytest.skip("no integer column")
    i = [x.name for x in t.fields].index(f.name)
    t[0, f.name] = 1 if t.rows[0][i] != 1 else 0
    arc[member] = t
    again = gcformats.open(arc.to_bytes())
    assert again[member].rows == t.rows
    assert {m: again[m].to_bytes() for m in again.members() if m != member} == others
    assert again.format == gcformats.open(path).format  # still compressed when it was


def test_width_and_type_checks_refuse_bad_cells(tables):
    for where, t in tables:
        for f in t.fields:
            if f.type == "SHORT":
                with pytest.raises(ValueError):
                    t[0, f.name] = 70000
            if f.type in ("LONG", "SHORT", "CHAR") and f.mask not in (0xFFFFFFFF, 0xFFFF, 0xFF):
                with pytest.raises(gcformats.FormatError):
                    t[0, f.name] = -1
            if f.type == "FLOAT":
                with pytest.raises(TypeError):
                    t[0, f.name] = "text"
        with pytest.raises(KeyError):
            t[0, "NoSuchField"] = 1
        break


def test_extract_and_pack_give_the_archive_back(archives, tmp_path):
    path, arc = archives[0]
    out = tmp_path / "x"
    written = arc.extract(out)
    assert written
    assert gcformats.pack(out, path.name) == path.read_bytes()


def test_replace_refuses_a_file_of_another_format(archives):
    for path, arc in archives:
        tables = [m for m in arc.members() if m.endswith(".bcsv")]
        models = [m for m in arc.members() if m.endswith((".bdl", ".bmd"))]
        if tables and models:
            arc = gcformats.open(path)
            with pytest.raises(gcformats.FormatError):
                arc[tables[0]] = arc[models[0]]
            return
    pytest.skip("no archive with a table and a model")


def _models():
    for p in real_files():
        if p.suffix in (".bmd", ".bdl"):
            yield p


def test_models_export_glb_and_vertex_arrays():
    models = list(_models())
    if not models:
        pytest.skip(f"no models in {CORPUS}")
    for p in models:
        m = gcformats.open(p)
        glb = m.to_glb()
        assert glb[:4] == b"glTF", p
        prims = m.primitives()
        assert prims, p
        for prim in prims:
            assert len(prim.positions) > 0
            assert tuple(prim.positions.shape)[1:] == (3,)
    print(f"{len(models)} real models")


def test_info_is_a_dict_and_check_gives_findings(archives):
    _, arc = archives[0]
    info = arc.info()
    assert isinstance(info, dict)
    assert all(isinstance(f, gcformats.Finding) for f in arc.check())


def _jgadget(name: str) -> int:
    h = 0
    for c in name.encode():
        h = (h * 31 + c) & 0xFFFFFFFF
    return h


def _table() -> bytes:
    """A two-row big-endian table built here: LONG, SHORT, CHAR, FLOAT, a LONG packed in bits
    4..7 (mask 0xF0, shift 4) and a STRING_OFFSET."""
    fields = [  # name, mask, offset, shift, type
        ("Param00Int", 0xFFFFFFFF, 0, 0, 0),
        ("Param00VecX", 0xFFFF, 4, 0, 4),
        ("Param00VecY", 0xFF, 6, 0, 5),
        ("Param00F32", 0xFFFFFFFF, 8, 0, 2),
        ("Param00VecZ", 0xF0, 12, 4, 0),
        ("Param00Str", 0xFFFFFFFF, 16, 0, 6),
    ]
    entry = 20
    head = struct.pack(">4I", 2, len(fields), 16 + 12 * len(fields), entry)
    head += b"".join(struct.pack(">IIHBB", _jgadget(n), m, o, s, t) for n, m, o, s, t in fields)
    pool = b"ab\0cd\0"
    rows = struct.pack(">ihbxfII", -5, -2, 7, 1.5, 0x30, 0)
    rows += struct.pack(">ihbxfII", 9, 300, -1, -0.25, 0xF0, 3)
    data = head + rows + pool
    return data + b"@" * (-len(data) % 32)


def test_a_built_table_reads_its_cells_and_refuses_what_does_not_fit():
    t = gcformats.open(_table(), name="t.bcsv")
    assert t.format == "bcsv"
    assert [(f.name, f.type) for f in t.fields][:2] == [("Param00Int", "LONG"), ("Param00VecX", "SHORT")]
    assert [f.mask for f in t.fields][4] == 0xF0 and t.fields[4].shift == 4
    assert t.rows == [[-5, -2, 7, 1.5, 3, "ab"], [9, 300, -1, -0.25, 15, "cd"]]
    assert t.to_bytes() == _table()
    with pytest.raises(ValueError):
        t[0, "Param00VecX"] = 70000  # wider than 16 bits
    with pytest.raises(ValueError):
        t[0, "Param00VecY"] = -129
    with pytest.raises(gcformats.FormatError):
        t[0, "Param00VecZ"] = 16  # four bits
    with pytest.raises(TypeError):
        t[0, "Param00F32"] = "x"
    with pytest.raises(KeyError):
        t[0, "nope"] = 1
    with pytest.raises(IndexError):
        t[2, "Param00Int"] = 1
    assert t.to_bytes() == _table()  # refused edits leave the table as it was
    t[1, "Param00VecZ"] = 5
    t[0, "Param00VecX"] = 65535  # unsigned spelling of -1
    t[1, "Param00Str"] = "ab"
    assert t.rows == [[-5, -1, 7, 1.5, 3, "ab"], [9, 300, -1, -0.25, 5, "ab"]]
    again = gcformats.open(t.to_bytes(), name="t.bcsv")
    assert again.rows == t.rows
    assert again.check() == [] or all(f.severity != "error" for f in again.check())


def test_vertex_data_without_numpy_are_memoryviews(monkeypatch):
    models = list(_models())
    if not models:
        pytest.skip(f"no models in {CORPUS}")
    with_numpy = gcformats.open(models[0]).primitives()[0]
    monkeypatch.setitem(__import__("sys").modules, "numpy", None)  # `import numpy` fails
    prim = gcformats.open(models[0]).primitives()[0]
    assert isinstance(prim.positions, memoryview)
    assert prim.positions.shape[1:] == (3,) and prim.positions.format == "f"
    assert prim.positions.tolist() == with_numpy.positions.tolist()
    assert prim.indices.tolist() == with_numpy.indices.tolist()
