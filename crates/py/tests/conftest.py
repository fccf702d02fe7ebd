"""Shared fixtures: the real game files beside the repository (`../shared/corpus/real`), which
the tests skip without."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import gcformats

ROOT = Path(__file__).resolve().parents[3]
CORPUS = Path(os.environ.get("GCFORMATS_CORPUS", ROOT.parent / "shared" / "corpus" / "real"))


def real_files() -> list[Path]:
    """Every file of the real corpus, sorted (none without it)."""
    if not CORPUS.is_dir():
        return []
    return sorted(p for p in CORPUS.rglob("*") if p.is_file() and p.suffix != ".tsv")


def is_archive(f: gcformats.Opened) -> bool:
    return f.format == "rarc" or (f.format in ("yaz0", "yay0") and f.detail == "rarc")


@pytest.fixture(scope="session")
def archives() -> list[tuple[Path, gcformats.Opened]]:
    """Every real RARC archive (through Yaz0), opened; skips without the corpus."""
    if not CORPUS.is_dir():
        if os.environ.get("GCFORMATS_REQUIRE_CORPUS"):
            pytest.fail(f"no real corpus at {CORPUS} (GCFORMATS_REQUIRE_CORPUS is set)")
        pytest.skip(f"no real corpus at {CORPUS}")
    out = []
    for p in real_files():
        try:
            f = gcformats.open(p)
        except gcformats.FormatError:
            continue
        if is_archive(f):
            out.append((p, f))
    assert out, f"no archive in {CORPUS}"
    return out


@pytest.fixture(scope="session")
def tables(archives) -> list[tuple[str, gcformats.Opened]]:
    """Every BCSV table inside the real archives, as (archive:member, opened)."""
    out = []
    for p, arc in archives:
        for m in arc.members():
            t = arc[m]
            if t.format == "bcsv":
                out.append((f"{p.name}:{m}", t))
    assert out, "no table in the real archives"
    return out
