#!/usr/bin/env python3
"""Build and run ABI probes (see gen_abi_probe.py).

  run_abi_probe.py run     --cc CC --ours DIR [--header H ...]
      Generate the probe from our headers, compile it strictly against them
      and run it.  Fails if anything does not compile.

  run_abi_probe.py compare --cc CC --ours DIR --nvidia DIR
      Generate probes from both our cuda.h and NVIDIA's cuda.h, run each
      probe against both headers (facts a header does not define are
      dropped for that header), and compare every fact both define.  Also
      checks that every plain entry point name maps to the same exported
      symbol as with NVIDIA's header, with and without
      CUDA_API_PER_THREAD_DEFAULT_STREAM.  Any difference is an ABI bug in
      our header; the exit status is 1 then.

Known, intended difference: cuCtxCreate is a function-like macro in our
header (3 arguments -> cuCtxCreate_v2, 4 -> cuCtxCreate_v4), so it is left
out of the mapping comparison.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # keep the source tree clean (no __pycache__)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_abi_probe as gen  # noqa: E402

FACT_TAG = re.compile(r"/\*@fact (\d+)\*/")
ERR_LINE = re.compile(r"^[^:\n]*probe[^:\n]*\.c:(\d+):(?:\d+:)?\s*(?:fatal )?error", re.M)


def build_and_run(cc, info, headers, include_dir, workdir, tag, strict, defines=(), max_rounds=20):
    """Compile the probe for info against include_dir and run it.

    Returns (facts dict, set of skipped fact ids).  In non-strict mode, facts
    whose line fails to compile are dropped and the build is retried."""
    skip = set()
    src = os.path.join(workdir, "probe_%s.c" % tag)
    exe = os.path.join(workdir, "probe_%s" % tag)
    flags = ["-std=c11"] + ["-D" + d for d in defines]
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


MAPPING_EXCEPTIONS = {"cuCtxCreate"}


def mapped_symbols(cc, include_dir, names, defines):
    """Expand every name after including cuda.h; returns {name: expansion}."""
    src = '#include "cuda.h"\n' + "".join("@@ %s %s\n" % (n, n) for n in names)
    cmd = [cc, "-E", "-P", "-std=c11", "-x", "c", "-I", include_dir] + ["-D" + d for d in defines] + ["-"]
    res = subprocess.run(cmd, input=src, capture_output=True, text=True)
    if res.returncode != 0:
        sys.stderr.write(res.stderr)
        raise SystemExit("preprocessing failed for " + include_dir)
    out = {}
    for line in res.stdout.splitlines():
        if line.startswith("@@"):
            parts = line.split()
            if len(parts) == 3:
                out[parts[1]] = parts[2]
    return out


def entry_point_macros(cc, include_dir):
    lines = gen.preprocess(cc, [include_dir], ["cuda.h"], ["CUDA_API_PER_THREAD_DEFAULT_STREAM"], "c11")
    names = set()
    for _f, line in lines:
        m = re.match(r"#\s*define\s+(cu[A-Za-z0-9_]+)\b", line)
        if m:
            names.add(m.group(1))
    return names


def compare_mappings(cc, ours_dir, nv_dir):
    names = sorted((entry_point_macros(cc, ours_dir) | entry_point_macros(cc, nv_dir)) - MAPPING_EXCEPTIONS)
    bad, total = [], 0
    for mode in ([], ["CUDA_API_PER_THREAD_DEFAULT_STREAM"]):
        a = mapped_symbols(cc, ours_dir, names, mode)
        b = mapped_symbols(cc, nv_dir, names, mode)
        for n in names:
            total += 1
            if a.get(n) != b.get(n):
                bad.append((n, "ptds" if mode else "default", a.get(n), b.get(n)))
    return names, total, bad


def cmd_run(args):
    headers = args.header or ["cuda.h"]
    os.makedirs(args.workdir, exist_ok=True)
    info = gen.analyse(args.cc, [args.ours], headers, args.define)
    facts, _ = build_and_run(args.cc, info, headers, args.ours, args.workdir, "ours", strict=True,
                             defines=args.define)
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


def compare_facts(args, defines, label):
    headers = ["cuda.h"]
    workdir = os.path.join(args.workdir, label)
    os.makedirs(workdir, exist_ok=True)
    d = defines
    info_ours = gen.analyse(args.cc, [args.ours], headers, d)
    info_nv = gen.analyse(args.cc, [args.nvidia], headers, d)
    ours, nv = {}, {}
    f, _ = build_and_run(args.cc, info_ours, headers, args.ours, workdir, "ours_on_ours", True, d)
    ours.update(f)
    f, _ = build_and_run(args.cc, info_ours, headers, args.nvidia, workdir, "ours_on_nvidia", False, d)
    nv.update(f)
    f, _ = build_and_run(args.cc, info_nv, headers, args.nvidia, workdir, "nvidia_on_nvidia", False, d)
    nv.update(f)
    f, _ = build_and_run(args.cc, info_nv, headers, args.ours, workdir, "nvidia_on_ours", False, d)
    ours.update(f)

    common = sorted(set(ours) & set(nv))
    mismatches = [(k, ours[k], nv[k]) for k in common if ours[k] != nv[k]]
    only_nv = sorted(set(nv) - set(ours))
    only_ours = sorted(set(ours) - set(nv))
    names = {n for (_k, n) in common}

    report = os.path.join(workdir, "abi_compare.txt")
    with open(report, "w") as out:
        for (k, n), a, b in mismatches:
            out.write("MISMATCH %s %s ours=%d nvidia=%d\n" % (k, n, a, b))
        for k, n in only_nv:
            out.write("ONLY_NVIDIA %s %s\n" % (k, n))
        for k, n in only_ours:
            out.write("ONLY_OURS %s %s\n" % (k, n))

    for (k, n), a, b in mismatches:
        print("MISMATCH [%s] %-8s %-60s ours=%d nvidia=%d" % (label, k, n, a, b))
    print("[%s] compared %d facts (%d names) defined by both headers: %d mismatches" % (
        label, len(common), len(names), len(mismatches)))
    print("[%s] facts only in NVIDIA's header: %d; only in ours: %d (details: %s)" % (
        label, len(only_nv), len(only_ours), report))
    if args.verbose:
        for k, n in only_nv:
            print("  only nvidia: %s %s" % (k, n))
    return len(mismatches)


def cmd_compare(args):
    os.makedirs(args.workdir, exist_ok=True)
    if args.define:
        modes = [(args.define, "custom")]
    else:
        # what programs see, and what the driver implementation sees
        modes = [([], "public"), (["__CUDA_API_VERSION_INTERNAL"], "internal")]
    bad = 0
    for defines, label in modes:
        bad += compare_facts(args, defines, label)
    map_names, map_total, map_bad = compare_mappings(args.cc, args.ours, args.nvidia)
    for n, mode, a, b in map_bad:
        print("MAPPING  %-40s [%s] ours=%s nvidia=%s" % (n, mode, a, b))
    print("compared %d plain-name mappings (%d names x 2 modes): %d mismatches" % (
        map_total, len(map_names), len(map_bad)))
    bad += len(map_bad)
    return 1 if bad else 0


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
        p.add_argument("-D", dest="define", action="append", default=[],
                       help="preprocessor definition for the probes (e.g. __CUDA_API_VERSION_INTERNAL)")
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
