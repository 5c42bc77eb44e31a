#!/usr/bin/env python3
"""Differential campaign: generated kernels run under every execution
engine; every disagreement is reported and saved.

    campaign.py --seeds A:B [--modes default,specialized,fallback,memcheck]
                [--cucc PATH] [--diffrun PATH] [--jobs N] [--timeout S]
                [--findings DIR] [--digests FILE] [--wrap CMD]
                [--volatile-warp-sync] [--deadline S]
    campaign.py --seeds A:B --nvcc [PATH] --diffrun DIFFRUN_NV
                [--digests FILE] [--compare CUCPU_DIGESTS]

Seeds A..B-1, one kernel each (kernelgen.py). Without --nvcc, each kernel
is compiled by cucc and run once per mode; the modes must agree and every
run must succeed. With --nvcc, nvcc -cubin -arch=sm_90 compiles and diffrun
(built against NVIDIA's driver) runs each kernel once ("nvidia"); with
--compare, the digests must equal those of a cucpu campaign's --digests.
With --deadline, no kernel starts after S seconds: the campaign stops within
a kernel's time and reports how many ran (for a machine lent for a while).
Exit status 0 when nothing disagreed, 1 otherwise.
"""

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor, as_completed

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import runs  # noqa: E402
from kernelgen import write_kernel  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


def parse_args():
    """The command line."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seeds", required=True, help="A:B, seeds A..B-1")
    p.add_argument("--modes", default="default,specialized,fallback,memcheck")
    p.add_argument("--cucc", default=os.path.join(
        REPO, "build/dev/tools/cucc/cucc"))
    p.add_argument("--nvcc", nargs="?", const="nvcc", default=None,
                   help="compile with NVIDIA's nvcc (a GPU run)")
    p.add_argument("--arch", default="sm_90", help="nvcc's -arch")
    p.add_argument("--diffrun", default=os.path.join(
        REPO, "build/dev/tests/differential/diffrun"))
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    p.add_argument("--timeout", type=int, default=60,
                   help="seconds per compile or run")
    p.add_argument("--work", help="folder for the kernels and outputs "
                   "(default: a temporary one, removed afterwards)")
    p.add_argument("--findings", default="/tmp/kernelgen-findings")
    p.add_argument("--digests", help="write `seed mode result` lines here")
    p.add_argument("--compare", help="digests file of a cucpu campaign "
                   "that each kernel's result must match")
    p.add_argument("--wrap", default="", help="a command line that runs "
                   "diffrun, such as 'compute-sanitizer --tool racecheck "
                   "--error-exitcode 9' (a non-zero exit is a finding)")
    p.add_argument("--volatile-warp-sync", action="store_true")
    p.add_argument("--deadline", type=float, default=None,
                   help="start no kernel after this many seconds")
    p.add_argument("-v", "--verbose", action="store_true")
    args = p.parse_args()
    a, _, b = args.seeds.partition(":")
    args.seed_range = range(int(a), int(b) if b else int(a) + 1)
    args.mode_list = ["nvidia"] if args.nvcc else args.modes.split(",")
    for m in args.mode_list:
        if m not in runs.MODES:
            p.error(f"unknown mode {m!r} (one of {', '.join(runs.MODES)})")
    return args


def read_digests(path):
    """{seed: {mode: result}} from a --digests file."""
    table = {}
    with open(path) as f:
        for line in f:
            seed, mode, result = line.rstrip("\n").split(" ", 2)
            table.setdefault(int(seed), {})[mode] = result
    return table


def check_kernel(args, seed, work, reference):
    """Generate, compile and run one kernel; return (seed, results, why)
    where why is None when everything agreed; results is None for a kernel
    not started because the deadline had passed."""
    if args.stop_at is not None and time.time() > args.stop_at:
        return seed, None, None
    cu, js = write_kernel(seed, work, args.volatile_warp_sync)
    with open(js) as f:
        side = json.load(f)
    cubin = os.path.join(work, f"k{seed}.cubin")
    compiler = [args.nvcc, "-cubin", f"-arch={args.arch}"] if args.nvcc \
        else [args.cucc, "-cubin"]
    diag = runs.compile_kernel(compiler, cu, cubin, args.timeout)
    if diag:
        return seed, {"compile": diag.splitlines()[-1]}, \
            "compile error:\n" + diag
    results = {}
    for mode in args.mode_list:
        dump = os.path.join(work, f"k{seed}.{mode}.out")
        status, out, err = runs.run(
            args.wrap.split() + runs.diffrun_cmd(args.diffrun, cubin, side,
                                                 dump),
            args.timeout, runs.mode_env(mode))
        results[mode] = runs.classify(status, out, err, args.timeout)
        if err.strip():
            with open(os.path.join(work, f"k{seed}.{mode}.err"), "w") as f:
                f.write(err)
    distinct = set(results.values())
    if len(distinct) > 1:
        return seed, results, "modes disagree"
    if not next(iter(distinct)).startswith("ok "):
        return seed, results, "every mode fails"
    if reference is not None:
        theirs = set(reference.get(seed, {}).values())
        if theirs != distinct:
            results.update({f"ref:{m}": r for m, r in
                            reference.get(seed, {"missing": "-"}).items()})
            return seed, results, "differs from the reference digests"
    return seed, results, None


def save_finding(args, work, seed, results, why):
    """Copy a disagreeing kernel, its sidecar, cubin and every output to
    <findings>/k<seed>/, with results.txt and the command that reruns it."""
    dest = os.path.join(args.findings, f"k{seed}")
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    for name in os.listdir(work):
        if name.startswith(f"k{seed}."):
            shutil.copy(os.path.join(work, name), dest)
    with open(os.path.join(dest, f"k{seed}.json")) as f:
        side = json.load(f)
    cmd = runs.diffrun_cmd(os.path.abspath(args.diffrun),
                           os.path.join(dest, f"k{seed}.cubin"), side)
    with open(os.path.join(dest, "results.txt"), "w") as f:
        f.write(why + "\n")
        for mode, result in results.items():
            f.write(f"{mode}: {result}\n")
        f.write("rerun (with CUCPU_EXEC=... or CUCPU_MEMCHECK=1): "
                "CUDA_CACHE_DISABLE=1 " + " ".join(cmd) + "\n")
    return dest


def main():
    """Run the campaign and print a report."""
    args = parse_args()
    start = time.time()
    args.stop_at = None if args.deadline is None else start + args.deadline
    for tool in ([args.diffrun] + ([] if args.nvcc else [args.cucc])):
        if not os.path.exists(tool):
            sys.exit(f"campaign: {tool} not found")
    work = args.work or tempfile.mkdtemp(prefix="kernelgen-")
    os.makedirs(work, exist_ok=True)
    reference = read_digests(args.compare) if args.compare else None
    bad, count, skipped, lines = 0, 0, 0, []
    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        futures = [pool.submit(check_kernel, args, s, work, reference)
                   for s in args.seed_range]
        for future in as_completed(futures):
            seed, results, why = future.result()
            if results is None:
                skipped += 1
                continue
            count += 1
            lines += [f"{seed} {m} {r}\n" for m, r in results.items()]
            if args.verbose:
                print(f"k{seed}: {why or 'agree'}", flush=True)
            if why:
                bad += 1
                dest = save_finding(args, work, seed, results, why)
                print(f"DISAGREEMENT k{seed}: {why.splitlines()[0]} "
                      f"({dest})")
                for mode, result in results.items():
                    print(f"  {mode:12} {result}", flush=True)
    if args.digests:
        with open(args.digests, "w") as f:
            f.writelines(sorted(lines, key=lambda x: int(x.split()[0])))
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)
    ran = sorted(int(line.split()[0]) for line in lines)
    span = f"seeds {ran[0]}-{ran[-1]}, " if ran else ""
    print(f"{count} kernels x {len(args.mode_list)} modes "
          f"({','.join(args.mode_list)}): {bad} disagreement(s), "
          f"{span}{time.time() - start:.0f}s"
          + (f"; {skipped} not started (deadline)" if skipped else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
