"""Reads every BCSV table of the real archives with gcformats and with pyjmap (PyPI), in one
process, and prints the times and the ratio (BENCHMARKS.md, "Python").

    python crates/py/bench/bench_pyjmap.py [CORPUS] [--min-ratio N]

Both read the same decompressed table bytes (pyjmap reads no Yaz0 or RARC: gcformats takes the
tables out of the archives first, untimed) into every row's values; a second line times
gcformats from the archive files themselves (Yaz0, RARC, then the tables). Each time is the best
of several rounds. With --min-ratio the script fails when gcformats is not that many times faster.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pyjmap

import gcformats

ROOT = Path(__file__).resolve().parents[3]


def archives(corpus: Path) -> list[Path]:
    out = []
    for p in sorted(corpus.rglob("*")):
        if not p.is_file():
            continue
        try:
            f = gcformats.open(p)
        except gcformats.FormatError:
            continue
        if "rarc" in (f.format, f.detail):
            out.append(p)
    return out


def tables_of(path: Path) -> list[gcformats.Opened]:
    arc = gcformats.open(path)
    return [t for t in (arc[m] for m in arc.members()) if t.format == "bcsv"]


def read_gcformats(blobs: list[bytes]) -> int:
    cells = 0
    for b in blobs:
        t = gcformats.open(b)
        names = [f.name for f in t.fields]
        for row in t.rows:
            cells += len(row)
        assert names is not None
    return cells


def read_pyjmap(blobs: list[bytes], hashes) -> int:
    cells = 0
    for b in blobs:
        info = pyjmap.from_buffer(hashes, b, 0)
        names = [f.name for f in info.fields]
        for entry in info:
            cells += len([v for _, v in entry.data()])
        assert names is not None
    return cells


def read_archives(paths: list[Path]) -> int:
    cells = 0
    for p in paths:
        for t in tables_of(p):
            for row in t.rows:
                cells += len(row)
    return cells


def best(f, rounds: int) -> tuple[float, int]:
    times = []
    result = 0
    for _ in range(rounds):
        start = time.perf_counter()
        result = f()
        times.append(time.perf_counter() - start)
    return min(times), result


def main() -> int:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    min_ratio = 0.0
    if "--min-ratio" in sys.argv:
        min_ratio = float(sys.argv[sys.argv.index("--min-ratio") + 1])
        args = [a for a in args if a != sys.argv[sys.argv.index("--min-ratio") + 1]]
    corpus = Path(args[0]) if args else ROOT.parent / "shared" / "corpus" / "real"
    paths = archives(corpus)
    blobs = [t.to_bytes() for p in paths for t in tables_of(p)]
    if not blobs:
        print(f"no tables under {corpus}")
        return 1
    size = sum(map(len, blobs))
    hashes = pyjmap.SuperMarioGalaxyHashTable()
    ours, cells = best(lambda: read_gcformats(blobs), 10)
    theirs, their_cells = best(lambda: read_pyjmap(blobs, hashes), 3)
    whole, _ = best(lambda: read_archives(paths), 5)
    assert cells == their_cells, (cells, their_cells)
    ratio = theirs / ours
    print(f"{len(blobs)} tables ({size} bytes, {cells} cells) from {len(paths)} archives")
    print(f"gcformats  tables: {ours * 1000:8.2f} ms")
    print(f"pyjmap     tables: {theirs * 1000:8.2f} ms")
    print(f"gcformats  archives (Yaz0 + RARC + tables): {whole * 1000:8.2f} ms")
    print(f"ratio pyjmap / gcformats (tables): {ratio:.1f}x; pyjmap / gcformats (archives): {theirs / whole:.1f}x")
    if ratio < min_ratio:
        print(f"gcformats is only {ratio:.1f}x faster than pyjmap (at least {min_ratio}x asked)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
