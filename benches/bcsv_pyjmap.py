"""Times pyjmap (PyPI) on the bench table, for the side-by-side figures in BENCHMARKS.md.

    BCSV_BENCH_DUMP=/tmp/bcsv50k.bcsv cargo bench --bench bcsv --features bcsv -- --list
    pip install pyjmap && python3 benches/bcsv_pyjmap.py /tmp/bcsv50k.bcsv
"""
import sys
import time

import pyjmap


def best(fn, runs=3):
    """Best wall time and best CPU time (process_time: the shared machine's other jobs excluded)."""
    wall, cpu = [], []
    for _ in range(runs):
        w, c = time.perf_counter(), time.process_time()
        out = fn()
        wall.append(time.perf_counter() - w)
        cpu.append(time.process_time() - c)
    return min(wall), min(cpu), out


def main(path):
    data = open(path, "rb").read()
    mb = len(data) / (1 << 20)
    table = pyjmap.SuperMarioGalaxyHashTable()
    w_parse, c_parse, info = best(lambda: pyjmap.from_buffer(table, data, 0))
    w_write, c_write, out = best(lambda: pyjmap.pack_buffer(info))
    print(f"pyjmap {len(data)} bytes, {len(info)} rows")
    print(f"pyjmap parse: wall {mb / w_parse:.2f} MiB/s, cpu-time {mb / c_parse:.2f} MiB/s")
    print(f"pyjmap write: wall {mb / w_write:.2f} MiB/s, cpu-time {mb / c_write:.2f} MiB/s"
          f" (byte-identical to the input: {bytes(out) == data})")


if __name__ == "__main__":
    main(sys.argv[1])
