#!/usr/bin/env python3
"""Merges the Google Benchmark JSON of bench-cucpu, bench-native and bench-pocl.

Usage: merge.py --out results.json [--note TEXT] FILE.json...

Each FILE is one executable's --benchmark_out at one thread count; its
context says which form ("cucpu", "native", "pocl") and how many threads.
A benchmark found in several files of one form and thread count (rounds)
gets the median of their medians.
Prints a table of median times and ratios at the largest thread count, then
the thread-scaling table, and writes both to --out. Benchmarks that
bench-cucpu --ptx ran from nvcc's PTX (<name>.ptx) go to a table of their
own, beside the same benchmark from cucc's image. Exits 1 if any benchmark
reported an error (a wrong result). Python 3 standard library only.
"""

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time

FORMS = ("cucpu", "native", "pocl")
# bench-cucpu --ptx: the same benchmark with its kernel from nvcc's PTX.
PTX_SUFFIX = ".ptx"
UNIT_SECONDS = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}


def load(path):
    """Returns (form, threads, context, {name: median seconds}, reps, errors)."""
    with open(path) as f:
        data = json.load(f)
    ctx = data.get("context", {})
    form, threads = ctx.get("form"), int(ctx.get("threads", 0))
    if form not in FORMS or threads <= 0:
        sys.exit(f"{path}: no form/threads in the JSON context")
    medians, reps, errors = {}, {}, []
    for b in data.get("benchmarks", []):
        # "saxpy/min_time:0.050/repeats:5/real_time_median" -> "saxpy"
        name = b["name"].split("/")[0]
        if b.get("error_occurred"):
            errors.append(f"{form} {name}: {b.get('error_message', 'error')}")
            continue
        if b.get("run_type") == "iteration":
            reps[name] = reps.get(name, 0) + 1
        elif b.get("aggregate_name") == "median":
            medians[name] = b["real_time"] * UNIT_SECONDS[b["time_unit"]]
    return form, threads, ctx, medians, reps, errors


def fmt_time(s):
    if s is None:
        return "n/a"
    if s >= 1:
        return f"{s:.3f} s"
    if s >= 1e-3:
        return f"{s * 1e3:.2f} ms"
    return f"{s * 1e6:.2f} us"


def fmt_ratio(r):
    if r is None:
        return "n/a"
    return f"{r:.2f}x" if r >= 0.1 else f"{r:.2g}x"


def ratio(a, b):
    return a / b if a is not None and b else None


def table(header, rows):
    """A Markdown pipe table, readable in a terminal too."""
    widths = [max(len(str(c)) for c in col) for col in zip(header, *rows)]
    def line(cells):
        return "| " + " | ".join(str(c).ljust(w) for c, w in zip(cells, widths)) + " |"
    sep = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    return "\n".join([line(header), sep] + [line(r) for r in rows])


def machine():
    cpu = platform.processor() or "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {"cpu": cpu, "logical_cpus": os.cpu_count(),
            "kernel": platform.release()}


def git_revision():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    try:
        rev = subprocess.run(["git", "-C", root, "rev-parse", "--short", "HEAD"],
                             capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "--no-optional-locks", "-C", root, "status", "--porcelain",
                                "--untracked-files=no"],
                               capture_output=True, text=True, check=True).stdout.strip()
        return rev + ("+local changes" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--note", default="", help="free text stored in the JSON")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()

    rounds = {}  # (form, threads) -> {name: [median of each round]}
    reps, errors, modes, sizes = {}, [], set(), set()
    # The files with the most benchmarks first: their order is the table's.
    loaded = sorted((load(path) for path in args.files), key=lambda l: -len(l[3]))
    for form, threads, ctx, medians, r, errs in loaded:
        for name, m in medians.items():
            rounds.setdefault((form, threads), {}).setdefault(name, []).append(m)
        counts = reps.setdefault((form, threads), {})
        for name, n in r.items():
            counts[name] = counts.get(name, 0) + n
        errors += errs
        modes.add(ctx.get("mode"))
        sizes.add(ctx.get("sizes"))
    runs = {key: {name: statistics.median(ms) for name, ms in by_name.items()}
            for key, by_name in rounds.items()}
    top = max(t for _, t in runs)
    # Rows in run order, the full runs (largest thread count) first.
    order = []
    for (form, threads), medians in sorted(runs.items(), key=lambda kv: -kv[0][1]):
        order += [name for name in medians if name not in order]

    def median(form, name, threads=top):
        return runs.get((form, threads), {}).get(name)

    results = []
    rows = []
    ptx, prows = [], []
    for name in order:
        if name.endswith(PTX_SUFFIX):
            continue  # in the PTX table, beside its image's row
        img, from_ptx = median("cucpu", name), median("cucpu", name + PTX_SUFFIX)
        if from_ptx is not None:
            ptx.append({"name": name, "image_s": img, "ptx_s": from_ptx,
                        "ptx_over_image": ratio(from_ptx, img)})
            prows.append([name, fmt_time(img), fmt_time(from_ptx),
                          fmt_ratio(ratio(from_ptx, img))])
        c, n, p = (median(f, name) for f in FORMS)
        if c is None and n is None and p is None:
            continue  # only in a scaling run
        entry = {"name": name, "cucpu_s": c, "native_s": n, "pocl_s": p,
                 "cucpu_over_native": ratio(c, n), "cucpu_over_pocl": ratio(c, p),
                 "repetitions": {f: reps.get((f, top), {}).get(name) for f in FORMS}}
        results.append(entry)
        rows.append([name, fmt_time(c), fmt_time(n), fmt_time(p),
                     fmt_ratio(entry["cucpu_over_native"]),
                     fmt_ratio(entry["cucpu_over_pocl"])])

    scaling, srows = [], []
    others = sorted({t for _, t in runs if t != top})
    for low in others:
        for name in order:
            if name.endswith(PTX_SUFFIX) or all(median(f, name, low) is None for f in FORMS):
                continue
            entry = {"name": name, "threads": [low, top]}
            cells = [name]
            for f in FORMS:
                a, b = median(f, name, low), median(f, name, top)
                entry[f] = {f"{low}_threads_s": a, f"{top}_threads_s": b,
                            "speedup": ratio(a, b)}
                cells += [fmt_time(a), fmt_time(b), fmt_ratio(ratio(a, b))]
            scaling.append(entry)
            srows.append(cells)

    mode = "/".join(sorted(m for m in modes if m))
    info = {"mode": mode, "threads": top, "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
            "machine": machine(), "git": git_revision(), "note": args.note,
            "sizes": "; ".join(sorted(s for s in sizes if s))}
    print(f"cucpu benchmarks, mode {mode}, {top} threads; {info['machine']['cpu']}, "
          f"{info['machine']['logical_cpus']} logical CPUs; {info['git']}")
    print(f"Sizes: {info['sizes']}")
    print("Median wall time per run; ratio > 1 means cucpu is slower.\n")
    print(table(["benchmark", "cucpu", "native", "PoCL", "cucpu/native", "cucpu/PoCL"], rows))
    if prows:
        print("\ncucpu from nvcc's PTX (bench-cucpu --ptx; ratio > 1 means the PTX is slower):\n")
        print(table(["benchmark", "cucc image", "nvcc PTX", "PTX/image"], prows))
    if srows:
        print(f"\nThread scaling (speedup = time at {others[0]} / time at {top}):\n")
        header = ["kernel"]
        for f in ("cucpu", "native", "PoCL"):
            header += [f"{f} {others[0]}t", f"{f} {top}t", f"{f} speedup"]
        print(table(header, srows))

    with open(args.out, "w") as f:
        json.dump({**info, "benchmarks": results, "scaling": scaling, "ptx": ptx,
                   "errors": errors}, f, indent=2)
        f.write("\n")
    print(f"\nWrote {args.out}")
    if errors:
        print("\nFAILED benchmarks (wrong results):", file=sys.stderr)
        for e in errors:
            print("  " + e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
