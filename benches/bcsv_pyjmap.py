"""Times pyjmap (PyPI) on the bench table, for the side-by-side figures in BENCHMARKS.md.

    BCSV_BENCH_DUMP=/tmp/bcsv50k.bcsv cargo bench --bench bcsv --features bcsv -- --list
    pip install pyjmap && python3 benches/bcsv_pyjmap.py /tmp/bcsv50k.bcsv
"""
import sys
import time

import pyjmap


def best(fn, runs=3):
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return min(times), out


def main(path):
    data = open(path, "rb").read()
    mb = len(data) / (1 << 20)
    table = pyjmap.SuperMarioGalaxyHashTable()
    t_parse, info = best(lambda: pyjmap.from_buffer(table, data, 0))
    t_write, out = best(lambda: pyjmap.pack_buffer(info))
    print(f"pyjmap {len(data)} bytes, {len(info)} rows")
    print(f"pyjmap parse: {t_parse * 1e3:.1f} ms = {mb / t_parse:.2f} MiB/s")
    print(f"pyjmap write: {t_write * 1e3:.1f} ms = {mb / t_write:.2f} MiB/s (identical: {bytes(out) == data})")


if __name__ == "__main__":
    main(sys.argv[1])
