#!/usr/bin/env python3
"""Build and run ABI probes (see gen_abi_probe.py).

  run_abi_probe.py run     --cc CC --ours DIR [--header H ...]
      Generate the probe from our headers, compile it strictly against them
      and run it.  Fails if anything does not compile.

  run_abi_probe.py compare --cc CC --ours DIR --nvidia DIR
      Generate probes from both our cuda.h and NVIDIA's cuda.h, run each
      probe against both headers (facts a header does not define are
      dropped for that header), and compare every fact both define.  Any
      difference is an ABI bug in our header; the exit status is 1 then.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_abi_probe as gen  # noqa: E402

FACT_TAG = re.compile(r"/\*@fact (\d+)\*/")
ERR_LINE = re.compile(r"^[^:\n]*probe[^:\n]*\.c:(\d+):(?:\d+:)?\s*(?:fatal )?error", re.M)


def build_and_run(cc, info, headers, include_dir, workdir, tag, strict, max_rounds=20):
    """Compile the probe for info against include_dir and run it.

    Returns (facts dict, set of skipped fact ids).  In non-strict mode, facts
    whose line fails to compile are dropped and the build is retried."""
    skip = set()
    src = os.path.join(workdir, "probe_%s.c" % tag)
    exe = os.path.join(workdir, "probe_%s" % tag)
    flags = ["-std=c11"]
    flags += ["-Wall", "-Wextra", "-Werror"] if strict else ["-w", "-fmax-errors=0"]
    for _ in range(max_rounds):
        text, _n = gen.emit_probe(info, headers, skip=skip)
        with open(src, "w") as f:
            f.write(text)
        res = subprocess.run([cc] + flags + ["-I", include_dir, src, "-o", exe],
                             capture_output=True, text=True)
        if res.returncode == 0:
            break
        if strict:
            sys.stderr.write(res.stderr)
            raise SystemExit("probe %s failed to compile against %s" % (tag, include_dir))
        lines = text.split("\n")
        new = set()
        for m in ERR_LINE.finditer(res.stderr):
            ln = int(m.group(1))
            if 1 <= ln <= len(lines):
                t = FACT_TAG.search(lines[ln - 1])
                if t:
                    new.add(int(t.group(1)))
        if not new - skip:
            sys.stderr.write(res.stderr[-4000:])
            raise SystemExit("probe %s: compile errors outside fact lines" % tag)
        skip |= new
    else:
        raise SystemExit("probe %s: too many rounds" % tag)
    run = subprocess.run([exe], capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit("probe %s exited with %d" % (tag, run.returncode))
    facts = {}
    for line in run.stdout.splitlines():
        kind, name, value = line.split()
        facts[(kind, name)] = int(value)
    return facts, skip


def cmd_run(args):
    headers = args.header or ["cuda.h"]
    os.makedirs(args.workdir, exist_ok=True)
    info = gen.analyse(args.cc, [args.ours], headers)
    facts, _ = build_and_run(args.cc, info, headers, args.ours, args.workdir, "ours", strict=True)
    kinds = {}
    for k, _n in facts:
        kinds[k] = kinds.get(k, 0) + 1
    out = os.path.join(args.workdir, "abi_ours.txt")
    with open(out, "w") as f:
        for (k, n), v in facts.items():
            f.write("%s %s %d\n" % (k, n, v))
    print("probe ran: %d facts (%s) -> %s" % (
        len(facts), ", ".join("%s %d" % kv for kv in sorted(kinds.items())), out))
    if len(facts) < args.min_facts:
        print("too few facts (expected at least %d)" % args.min_facts)
        return 1
    return 0


def cmd_compare(args):
    os.makedirs(args.workdir, exist_ok=True)
    headers = ["cuda.h"]
    info_ours = gen.analyse(args.cc, [args.ours], headers)
    info_nv = gen.analyse(args.cc, [args.nvidia], headers)
    ours, nv = {}, {}
    f, _ = build_and_run(args.cc, info_ours, headers, args.ours, args.workdir, "ours_on_ours", strict=True)
    ours.update(f)
    f, _ = build_and_run(args.cc, info_ours, headers, args.nvidia, args.workdir, "ours_on_nvidia", strict=False)
    nv.update(f)
    f, _ = build_and_run(args.cc, info_nv, headers, args.nvidia, args.workdir, "nvidia_on_nvidia", strict=False)
    nv.update(f)
    f, _ = build_and_run(args.cc, info_nv, headers, args.ours, args.workdir, "nvidia_on_ours", strict=False)
    ours.update(f)

    common = sorted(set(ours) & set(nv))
    mismatches = [(k, ours[k], nv[k]) for k in common if ours[k] != nv[k]]
    only_nv = sorted(set(nv) - set(ours))
    only_ours = sorted(set(ours) - set(nv))
    names = {n for (_k, n) in common}

    report = os.path.join(args.workdir, "abi_compare.txt")
    with open(report, "w") as out:
        for (k, n), a, b in mismatches:
            out.write("MISMATCH %s %s ours=%d nvidia=%d\n" % (k, n, a, b))
        for k, n in only_nv:
            out.write("ONLY_NVIDIA %s %s\n" % (k, n))
        for k, n in only_ours:
            out.write("ONLY_OURS %s %s\n" % (k, n))

    for (k, n), a, b in mismatches:
        print("MISMATCH %-8s %-60s ours=%d nvidia=%d" % (k, n, a, b))
    print("compared %d facts (%d names) defined by both headers: %d mismatches" % (
        len(common), len(names), len(mismatches)))
    print("facts only in NVIDIA's header: %d; only in ours: %d (details: %s)" % (
        len(only_nv), len(only_ours), report))
    if args.verbose:
        for k, n in only_nv:
            print("  only nvidia: %s %s" % (k, n))
    return 1 if mismatches else 0


def main(argv=None):
    ap = argparse.ArgumentParser(description="ABI probe runner")
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("run", "compare"):
        p = sub.add_parser(name)
        p.add_argument("--cc", default=os.environ.get("CC", "cc"))
        p.add_argument("--ours", required=True, help="our include directory")
        p.add_argument("--workdir", default=None, help="where probes are written")
        p.add_argument("--header", action="append", default=[])
        p.add_argument("-v", "--verbose", action="store_true")
        if name == "compare":
            p.add_argument("--nvidia", required=True, help="directory holding NVIDIA's cuda.h")
        else:
            p.add_argument("--min-facts", type=int, default=1)
    args = ap.parse_args(argv)
    if args.workdir is None:
        args.workdir = tempfile.mkdtemp(prefix="cucpu_abi_")
    return cmd_run(args) if args.cmd == "run" else cmd_compare(args)


if __name__ == "__main__":
    sys.exit(main())
