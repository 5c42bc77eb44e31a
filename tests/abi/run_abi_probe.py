#!/usr/bin/env python3
"""Build and run ABI probes (see gen_abi_probe.py).

  run_abi_probe.py run     --cc CC --ours DIR [--header H ...]
      Generate the probe from our headers, compile it strictly against them
      and run it.  Fails if anything does not compile.

  run_abi_probe.py compare --cc CC --ours DIR --nvidia DIR
      Generate probes from both our headers and NVIDIA's, run each probe
      against both (facts a header does not define are dropped for that
      header), and compare every fact both define: cuda.h; the runtime's
      types (driver_types.h, vector_types.h, surface_types.h,
      texture_types.h, device_types.h, library_types.h); cudaTypedefs.h and
      cudaProfilerTypedefs.h, whose PFN_ typedef names must also be the same
      set as NVIDIA's; cudaGL.h and cudaGLTypedefs.h where <GL/gl.h> exists.  Also
      checks that every plain entry point name maps to the same exported
      symbol as with NVIDIA's header (cuda.h's cu* names and
      cuda_runtime_api.h's cuda* names), with and without
      CUDA_API_PER_THREAD_DEFAULT_STREAM.  Any difference is an ABI bug in
      our header; the exit status is 1 then.

  run_abi_probe.py headers --cc CC [--cxx CXX] --ours DIR --header H ...
      Compile each header alone and before and after cuda.h and
      builtin_types.h, as C99 and C++11, with -Wall -Wextra -pedantic
      -Werror.

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


def mapped_symbols(cc, include_dir, names, defines, header="cuda.h"):
    """Expand every name after including header; returns {name: expansion}."""
    src = '#include "%s"\n' % header + "".join("@@ %s %s\n" % (n, n) for n in names)
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


def entry_point_macros(cc, include_dir, header="cuda.h"):
    lines = gen.preprocess(cc, [include_dir], [header], ["CUDA_API_PER_THREAD_DEFAULT_STREAM"], "c11")
    names = set()
    for _f, line in lines:
        m = re.match(r"#\s*define\s+(cu[A-Za-z0-9_]+)\b", line)
        if m:
            names.add(m.group(1))
    return names


def compare_mappings(cc, ours_dir, nv_dir, header="cuda.h"):
    names = sorted((entry_point_macros(cc, ours_dir, header) | entry_point_macros(cc, nv_dir, header))
                   - MAPPING_EXCEPTIONS)
    bad, total = [], 0
    for mode in ([], ["CUDA_API_PER_THREAD_DEFAULT_STREAM"]):
        a = mapped_symbols(cc, ours_dir, names, mode, header)
        b = mapped_symbols(cc, nv_dir, names, mode, header)
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


# What "compare" checks, header group by header group: (label, headers whose
# own definitions are compared, whether to compare under
# __CUDA_API_VERSION_INTERNAL too, names that must exist in both).
RUNTIME_TYPES = ["driver_types.h", "vector_types.h", "surface_types.h",
                 "texture_types.h", "device_types.h", "library_types.h"]
GROUPS = [
    ("cuda", ["cuda.h"], True, None),
    ("runtime_types", RUNTIME_TYPES, False, None),
    # Every PFN_ typedef of NVIDIA's must exist in ours and the reverse.
    ("typedefs", ["cudaTypedefs.h", "cudaProfilerTypedefs.h"], True, "PFN_"),
    ("gl", ["cudaGL.h", "cudaGLTypedefs.h"], True, "PFN_"),
]


def have_gl_header(cc):
    """NVIDIA's cudaGL.h includes <GL/gl.h>, which a machine may lack."""
    res = subprocess.run([cc, "-E", "-x", "c", "-"], input="#include <GL/gl.h>\n",
                         capture_output=True, text=True)
    return res.returncode == 0


def compare_facts(args, defines, label, headers=("cuda.h",), must_match=None):
    headers = list(headers)
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
    if must_match:
        # a name of this family defined by one header only is a mismatch too
        for k in only_nv:
            if k[0] == "sizeof" and k[1].startswith(must_match):
                mismatches.append((k, -1, nv[k]))
        for k in only_ours:
            if k[0] == "sizeof" and k[1].startswith(must_match):
                mismatches.append((k, ours[k], -1))
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
        if a == -1 or b == -1:
            print("MISSING  [%s] %-8s %-60s only in %s" % (label, k, n, "NVIDIA's" if a == -1 else "ours"))
            continue
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
    bad = 0
    gl = have_gl_header(args.cc)
    for group, headers, internal_too, must_match in GROUPS:
        if group == "gl" and not gl:
            print("[%s] skipped: no <GL/gl.h>, which NVIDIA's cudaGL.h includes" % group)
            continue
        if args.define:
            modes = [(args.define, "custom")]
        elif internal_too:
            # what programs see, and what the driver implementation sees
            modes = [([], "public"), (["__CUDA_API_VERSION_INTERNAL"], "internal")]
        else:
            modes = [([], "public")]
        for defines, mode in modes:
            label = mode if group == "cuda" else "%s_%s" % (group, mode)
            bad += compare_facts(args, defines, label, headers, must_match)
    for header in ("cuda.h", "cuda_runtime_api.h"):
        map_names, map_total, map_bad = compare_mappings(args.cc, args.ours, args.nvidia, header)
        for n, mode, a, b in map_bad:
            print("MAPPING  %-40s [%s] ours=%s nvidia=%s" % (n, mode, a, b))
        print("%s: compared %d plain-name mappings (%d names x 2 modes): %d mismatches" % (
            header, map_total, len(map_names), len(map_bad)))
        bad += len(map_bad)
    return 1 if bad else 0


def cmd_headers(args):
    """Each header alone and before/after cuda.h and builtin_types.h, in C99
    and C++11, warning-free with -Wall -Wextra -pedantic."""
    headers = args.header
    langs = [(args.cc, ["-x", "c", "-std=c99"])]
    if args.cxx:
        langs.append((args.cxx, ["-x", "c++", "-std=c++11"]))
    orders = [[h] for h in headers]
    orders += [[h, "cuda.h", "builtin_types.h"] for h in headers]
    orders += [["builtin_types.h", "cuda.h", h] for h in headers]
    bad = 0
    for cc, lang in langs:
        for order in orders:
            src = "".join('#include "%s"\n' % h for h in order) + "typedef int cucpu_not_empty;\n"
            res = subprocess.run([cc] + lang + ["-fsyntax-only", "-Wall", "-Wextra", "-pedantic",
                                                "-Werror", "-I", args.ours, "-"],
                                 input=src, capture_output=True, text=True)
            if res.returncode != 0:
                bad += 1
                print("FAIL %s %s: %s" % (os.path.basename(cc), " ".join(lang), " ".join(order)))
                sys.stderr.write(res.stderr[-2000:])
    print("compiled %d header orders with %d compilers: %d failures" % (len(orders), len(langs), bad))
    return 1 if bad else 0


def main(argv=None):
    ap = argparse.ArgumentParser(description="ABI probe runner")
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("run", "compare", "headers"):
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
        elif name == "headers":
            p.add_argument("--cxx", default=None, help="C++ compiler (optional)")
        else:
            p.add_argument("--min-facts", type=int, default=1)
    args = ap.parse_args(argv)
    if args.workdir is None:
        args.workdir = tempfile.mkdtemp(prefix="cucpu_abi_")
    if args.cmd == "headers":
        return cmd_headers(args)
    return cmd_run(args) if args.cmd == "run" else cmd_compare(args)


if __name__ == "__main__":
    sys.exit(main())
