#!/usr/bin/env python3
"""Generates include/cudaTypedefs.h, cudaGLTypedefs.h and cudaProfilerTypedefs.h.

Every row of driver/api/ProcVersions.def (base name, version, symbol and the
optional per-thread twin) becomes a function pointer type named as NVIDIA's
toolkit names it,

    PFN_<base>_v<version>            for the legacy-stream symbol,
    PFN_<base>_v<ptversion>_ptds     (or _ptsz) for the per-thread twin,

whose signature is the prototype that our headers declare for the symbol.
Each type goes into the typedef header of the header that declares its
symbol (cuda.h, cudaGL.h or cudaProfiler.h). Types of ABIs that only the
driver sees are put under __CUDA_API_VERSION_INTERNAL, as NVIDIA does. Each
base also gets the unversioned PFN_<base> of CUDA 11 and 12 (the newest
version not above CUDA_VERSION), per-thread when the program asks for the
per-thread default stream.

The prototypes are read from the preprocessed headers (the C compiler's -E),
once as programs see them and once with __CUDA_API_VERSION_INTERNAL.

  gen-cuda-typedefs.py [--cc CC]            rewrite the three headers
  gen-cuda-typedefs.py [--cc CC] --check    exit 1 if any of them is stale
"""
import argparse
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INCLUDE = ROOT / "include"
PROC_VERSIONS = ROOT / "driver/api/ProcVersions.def"
ROW = re.compile(r"^CU_PROC(_PT)?\((.*)\)\s*$")
PROTO = re.compile(r"\bCUresult CUDAAPI (cu\w+) ?\(((?:[^()]|\([^()]*\))*)\) ?;")
WIDTH = 80
TOKEN = re.compile(r"[A-Za-z_]\w*|\d+|\.\.\.|\S")

# Earlier exports that cuda.h (or cudaGL.h) declares for every program, but
# whose PFN types NVIDIA's typedef headers show only to the driver
# (__CUDA_API_VERSION_INTERNAL). Symbols that our headers themselves declare
# only for the driver need no entry here.
DRIVER_ONLY_SYMBOLS = {
    "cuCtxCreate", "cuCtxDestroy", "cuCtxPopCurrent", "cuCtxPushCurrent",
    "cuDevicePrimaryCtxRelease", "cuDevicePrimaryCtxReset",
    "cuDevicePrimaryCtxSetFlags", "cuEventDestroy", "cuGLGetDevices",
    "cuGraphInstantiate", "cuGraphInstantiate_v2",
    "cuGraphicsResourceSetMapFlags", "cuIpcOpenMemHandle", "cuLinkAddData",
    "cuLinkAddFile", "cuLinkCreate", "cuMemHostRegister",
    "cuStreamBeginCapture", "cuStreamDestroy", "cuTexRefSetAddress2D_v2",
}

# (output file, header it includes, include guard, what it describes). A
# symbol's type goes to the first file whose header declares it, except that
# the cuProfiler* functions, which our cuda.h declares too, have theirs in
# cudaProfilerTypedefs.h as NVIDIA's do.
OUTPUTS = [
    ("cudaProfilerTypedefs.h", "cudaProfiler.h", "CUDAPROFILERTYPEDEFS_H",
     "the profiler control functions of cudaProfiler.h"),
    ("cudaTypedefs.h", "cuda.h", "CUDATYPEDEFS_H", "the CUDA driver API"),
    ("cudaGLTypedefs.h", "cudaGL.h", "CUDAGLTYPEDEFS_H",
     "the OpenGL interoperability functions of cudaGL.h"),
]
OWNED_BY_NAME = {"cudaProfiler.h": re.compile(r"^cuProfiler")}


class Row:
    def __init__(self, base, version, symbol, pt_version=None, pt_symbol=None):
        self.base = base
        self.version = int(version)
        self.symbol = symbol
        self.pt_version = int(pt_version) if pt_version else None
        self.pt_symbol = pt_symbol

    @property
    def pt_suffix(self):
        return self.pt_symbol.rsplit("_", 1)[1]  # ptds or ptsz


def read_rows():
    rows = []
    for line in PROC_VERSIONS.read_text().splitlines():
        m = ROW.match(line.strip())
        if not m:
            continue
        rows.append(Row(*[a.strip() for a in m.group(2).split(",")]))
    # cuCtxGetDevice_v2 and the like are extra spellings that cuGetProcAddress
    # accepts; NVIDIA has no PFN types for them.
    return [r for r in rows if not re.search(r"_v\d+$", r.base)]


def prototypes(cc, header, internal):
    """{symbol: parameter text} of every entry point the header declares."""
    cmd = [cc, "-E", "-P", "-x", "c", "-std=c99", "-DCUDAAPI=CUDAAPI",
           "-I", str(INCLUDE), "-"]
    if internal:
        cmd.insert(-1, "-D__CUDA_API_VERSION_INTERNAL")
    res = subprocess.run(cmd, input='#include "%s"\n' % header,
                         capture_output=True, text=True)
    if res.returncode != 0:
        sys.stderr.write(res.stderr)
        raise SystemExit("preprocessing %s failed: %s" % (header, " ".join(cmd)))
    text = re.sub(r"\s+", " ", res.stdout)
    return {m.group(1): spell(m.group(2)) for m in PROTO.finditer(text)}


def spell(params):
    """Parameter list in one spelling: `const char **pStr, int n`."""
    toks = TOKEN.findall(params)
    out = ""
    for i, t in enumerate(toks):
        prev = toks[i - 1] if i else ""
        if not out or t in ",)" or prev in "(*" and prev:
            out += t
        elif t == "(" and prev not in ("", ","):
            out += t
        else:
            out += " " + t
    return out


def wrap(head, params, tail):
    """One declaration, broken after commas when it exceeds WIDTH columns."""
    line = head + params + tail
    if len(line) <= WIDTH:
        return [line]
    lines, cur = [], head
    indent = " " * 4
    for i, p in enumerate(params.split(", ")):
        piece = p + (", " if i + 1 < len(params.split(", ")) else tail)
        if cur.strip() and len(cur) + len(piece.rstrip()) > WIDTH:
            lines.append(cur.rstrip())
            cur = indent
        cur += piece
    lines.append(cur.rstrip())
    return lines


def typedef(name, params, comment):
    out = textwrap.wrap(comment, WIDTH, initial_indent="/// ",
                        subsequent_indent="/// ", break_on_hyphens=False)
    out += wrap("typedef CUresult(CUDAAPI *%s)(" % name, params, ");")
    return out


def version_text(v):
    return "%d.%d" % (v // 1000, (v % 1000) // 10)


def generate(cc):
    rows = read_rows()
    public = {}
    internal = {}
    owner = {}
    for out_name, header, _guard, _what in OUTPUTS:
        pub = prototypes(cc, header, False)
        inter = prototypes(cc, header, True)
        claim = OWNED_BY_NAME.get(header)
        for sym in set(pub) | set(inter):
            if claim is None or claim.match(sym):
                owner.setdefault(sym, header)
        public.update(pub)
        internal.update(inter)
    version = re.search(r"^#define CUDA_VERSION (\d+)", (INCLUDE / "cuda.h").read_text(), re.M)
    cuda_version = int(version.group(1))
    files = {}
    for out_name, header, guard, what in OUTPUTS:
        mine = [r for r in rows if owner.get(r.symbol) == header]
        missing = [r.symbol for r in rows if r.symbol not in owner]
        if missing:
            raise SystemExit("no prototype for %s" % ", ".join(sorted(set(missing))))
        if not mine:
            raise SystemExit("no rows for %s" % header)
        files[out_name] = render(out_name, header, guard, what, mine, public,
                                 internal, cuda_version)
    return files


def is_driver_only(row, public):
    return row.symbol not in public or row.symbol in DRIVER_ONLY_SYMBOLS


def render(out_name, header, guard, what, rows, public, internal, cuda_version):
    lines = [
        "/*",
    ] + textwrap.wrap(
        "%s - function pointer types of %s." % (out_name, what), WIDTH,
        initial_indent=" * ", subsequent_indent=" * ") + [
        " *",
        " * Generated by tools/gen-cuda-typedefs.py from",
        " * driver/api/ProcVersions.def and the prototypes of %s; do not edit" % header,
        " * (abi.typedefs_up_to_date fails when this file is stale).",
        " *",
        " * PFN_<name>_v<version> is the type of the entry point that",
        " * cuGetProcAddress(\"<name>\", ..., <version>, ...) hands out; _ptds and",
        " * _ptsz name the per-thread default stream variants. PFN_<name> is the",
        " * newest of them, per-thread when CUDA_API_PER_THREAD_DEFAULT_STREAM is",
        " * defined.",
        " */",
        "#ifndef %s" % guard,
        "#define %s" % guard,
        "",
        '#include "%s"' % header,
        "",
    ]
    if any(r.pt_symbol for r in rows):
        lines += [
        "/// PFN_<name>_v<ptds_version>_ptds, or PFN_<name>_v<default_version>",
        "/// without the per-thread default stream.",
        "#if defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)",
        "#define __API_TYPEDEF_PTDS(api, default_version, ptds_version)           \\",
        "  api##_v##ptds_version##_ptds",
        "/// As __API_TYPEDEF_PTDS, for functions that take a stream (_ptsz).",
        "#define __API_TYPEDEF_PTSZ(api, default_version, ptds_version)           \\",
        "  api##_v##ptds_version##_ptsz",
        "#else",
        "#define __API_TYPEDEF_PTDS(api, default_version, ptds_version)           \\",
        "  api##_v##default_version",
        "#define __API_TYPEDEF_PTSZ(api, default_version, ptds_version)           \\",
        "  api##_v##default_version",
        "#endif",
        "",
        ]
    lines += [
        "#ifdef __cplusplus",
        'extern "C" {',
        "#endif",
        "",
    ]

    def emit(row_list, sink):
        for r in row_list:
            params = internal[r.symbol]
            sink += typedef("PFN_%s_v%d" % (r.base, r.version), params,
                            "%s as of CUDA %s (%s)." % (
                                r.base, version_text(r.version), r.symbol))
            if r.pt_symbol:
                sink += typedef("PFN_%s_v%d_%s" % (r.base, r.pt_version, r.pt_suffix),
                                params, "%s as of CUDA %s, per-thread default stream (%s)." % (
                                    r.base, version_text(r.pt_version), r.pt_symbol))

    visible = [r for r in rows if not is_driver_only(r, public)]
    hidden = [r for r in rows if is_driver_only(r, public)]
    emit(visible, lines)
    if hidden:
        lines += ["",
                  "/* ABIs that programs compiled against this header cannot reach; the",
                  " * driver's own view. */",
                  "#if defined(__CUDA_API_VERSION_INTERNAL)"]
        emit(hidden, lines)
        lines.append("#endif /* __CUDA_API_VERSION_INTERNAL */")

    lines += ["", "/* The newest version of every function, as CUDA 11 and 12 defined it. */"]
    by_base = {}
    for r in visible:
        if r.version <= cuda_version:
            by_base.setdefault(r.base, []).append(r)
    for base in sorted(by_base):
        r = max(by_base[base], key=lambda x: x.version)
        name = "PFN_%s" % base
        if r.pt_symbol:
            macro = "__API_TYPEDEF_%s" % r.pt_suffix.upper()
            value = "%s(%s, %d, %d)" % (macro, name, r.version, r.pt_version)
        else:
            value = "%s_v%d" % (name, r.version)
        line = "#define %s %s" % (name, value)
        if len(line) > WIDTH:
            line = "#define %s%s\\\n  %s" % (name, " " * max(1, WIDTH - 10 - len(name)), value)
        lines.append(line)

    lines += ["", "#ifdef __cplusplus", "}", "#endif", "", "#endif /* %s */" % guard, ""]
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cc", default=os.environ.get("CC", "cc"),
                    help="C compiler used to preprocess the headers")
    ap.add_argument("--check", action="store_true",
                    help="exit 1 if a committed header differs from what this generates")
    args = ap.parse_args(argv)
    files = generate(args.cc)
    stale = []
    for name, text in files.items():
        path = INCLUDE / name
        current = path.read_text() if path.exists() else None
        if current == text:
            continue
        if args.check:
            stale.append(name)
        else:
            path.write_text(text)
            print("wrote %s" % path.relative_to(ROOT))
    if stale:
        print("stale: %s; run tools/gen-cuda-typedefs.py and commit the result"
              % ", ".join("include/" + s for s in stale))
        return 1
    if args.check:
        print("%d typedef headers up to date" % len(files))
    return 0


if __name__ == "__main__":
    sys.exit(main())
