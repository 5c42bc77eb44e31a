#!/usr/bin/env python3
"""Compare entry point signatures of our headers with NVIDIA's.

Optional companion of run_abi_probe.py (needs a C++ compiler): both headers
are compiled with __CUDA_API_VERSION_INTERNAL (so every exported symbol is
declared under its real name, without plain-name mappings) and a small C++
program prints typeid(&fn).name() for every entry point and typeid(T).name()
for every PFN_ function pointer type of cudaTypedefs.h (and its GL and
profiler siblings).  The mangled type encodes parameter and return types
down to struct/enum tags, so any difference that matters for the ABI (or for
C++ overloading) shows up.  The unversioned PFN_<name> macros of our
cudaTypedefs.h, which NVIDIA's CUDA 13 headers no longer have, must each name
one of the typedefs, with and without CUDA_API_PER_THREAD_DEFAULT_STREAM.
With --header cuda_runtime_api.h (and cuda_profiler_api.h), the runtime API's
functions are compared the same way: every `extern` cuda*/__cuda* function,
including the _ptds/_ptsz symbols declared under __CUDA_API_VERSION_INTERNAL.

  check_signatures.py --cxx CXX --ours DIR --nvidia DIR [--header cuda.h ...]
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

DECL = re.compile(r"\bCUDAAPI\s+(cu\w+)\s*\(|\bCUresult\s+(cu\w+)\s*\("
                  r"|\bextern\s+(?:\"C\"\s+)?(?:__attribute__\(\(\w+\)\)\s*)?(?:const\s+)?(?:struct\s+)?\w+[\s*]*"
                  r"\b(cuda\w+|__cuda\w+)\s*\(")
PFN_TYPEDEF = re.compile(r"\btypedef\s+CUresult\s*\(\s*(?:CUDAAPI\s*)?\*\s*(PFN_\w+)\s*\)")
PFN_MACRO = re.compile(r"^#\s*define\s+(PFN_\w+)\s", re.M)
DEFAULT_HEADERS = ["cuda.h", "cudaTypedefs.h", "cudaProfilerTypedefs.h"]
GL_HEADERS = ["cudaGL.h", "cudaGLTypedefs.h"]


def have_gl_header(cxx):
    """NVIDIA's cudaGL.h includes <GL/gl.h>, which a machine may lack."""
    res = subprocess.run([cxx, "-E", "-x", "c++", "-"], input="#include <GL/gl.h>\n",
                         capture_output=True, text=True)
    return res.returncode == 0


def declared_names(cxx, include_dir, headers):
    src = "".join('#include "%s"\n' % h for h in headers)
    cmd = [cxx, "-E", "-P", "-x", "c++", "-std=c++17", "-D__CUDA_API_VERSION_INTERNAL",
           "-DCUDAAPI=CUDAAPI", "-I", include_dir, "-"]
    res = subprocess.run(cmd, input=src, capture_output=True, text=True)
    if res.returncode != 0:
        sys.stderr.write(res.stderr)
        raise SystemExit("preprocessing failed for %s" % include_dir)
    names = []
    for m in DECL.finditer(res.stdout):
        n = m.group(1) or m.group(2) or m.group(3)
        if n not in names:
            names.append(n)
    for m in PFN_TYPEDEF.finditer(res.stdout):
        if m.group(1) not in names:
            names.append(m.group(1))
    return names


def pfn_macros(cxx, include_dir, headers):
    """Names of the unversioned PFN_<name> macros the headers define."""
    src = "".join('#include "%s"\n' % h for h in headers)
    res = subprocess.run([cxx, "-E", "-dM", "-x", "c++", "-std=c++17", "-I", include_dir, "-"],
                         input=src, capture_output=True, text=True)
    if res.returncode != 0:
        sys.stderr.write(res.stderr)
        raise SystemExit("preprocessing failed for %s" % include_dir)
    return sorted(set(PFN_MACRO.findall(res.stdout)))


def check_pfn_macros(cxx, include_dir, headers, workdir):
    """Every PFN_<name> macro must name a type, in both stream modes."""
    macros = pfn_macros(cxx, include_dir, headers)
    src = os.path.join(workdir, "pfn_macros.cpp")
    with open(src, "w") as f:
        f.write("".join('#include "%s"\n' % h for h in headers))
        f.write("#include <typeinfo>\n")
        for i, m in enumerate(macros):
            f.write("const std::type_info &pfn_%d = typeid(%s);\n" % (i, m))
    for mode in ([], ["-DCUDA_API_PER_THREAD_DEFAULT_STREAM"]):
        res = subprocess.run([cxx, "-std=c++17", "-fsyntax-only", "-I", include_dir] + mode + [src],
                             capture_output=True, text=True)
        if res.returncode != 0:
            sys.stderr.write(res.stderr[-3000:])
            print("unversioned PFN_ macros that name no type (%s)" % (" ".join(mode) or "default stream"))
            return len(macros), 1
    return len(macros), 0


def signatures(cxx, include_dir, headers, names, workdir, tag):
    skip = set()
    src = os.path.join(workdir, "sig_%s.cpp" % tag)
    exe = os.path.join(workdir, "sig_%s" % tag)
    for _ in range(10):
        lines = ["#include <cstdio>", "#include <typeinfo>"]
        lines += ['#include "%s"' % h for h in headers]
        lines.append("int main() {")
        index = {}
        for n in names:
            if n in skip:
                continue
            expr = n if n.startswith("PFN_") else "&" + n
            lines.append('    std::printf("%%s %%s\\n", "%s", typeid(%s).name());' % (n, expr))
            index[len(lines)] = n
        lines.append("    return 0;\n}")
        with open(src, "w") as f:
            f.write("\n".join(lines) + "\n")
        res = subprocess.run([cxx, "-std=c++17", "-w", "-D__CUDA_API_VERSION_INTERNAL",
                              "-I", include_dir, src, "-o", exe], capture_output=True, text=True)
        if res.returncode == 0:
            break
        bad = {index[int(m.group(1))] for m in re.finditer(r"sig_%s\.cpp:(\d+):" % tag, res.stderr)
               if int(m.group(1)) in index}
        if not bad - skip:
            sys.stderr.write(res.stderr[-3000:])
            raise SystemExit("signature probe %s does not compile" % tag)
        skip |= bad
    out = subprocess.run([exe], capture_output=True, text=True, check=True).stdout
    return dict(line.split(" ", 1) for line in out.splitlines())


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cxx", default=os.environ.get("CXX", "c++"))
    ap.add_argument("--ours", required=True)
    ap.add_argument("--nvidia", required=True)
    ap.add_argument("--header", action="append", default=[])
    ap.add_argument("--workdir", default=None)
    args = ap.parse_args(argv)
    headers = args.header or DEFAULT_HEADERS + (GL_HEADERS if have_gl_header(args.cxx) else [])
    workdir = args.workdir or tempfile.mkdtemp(prefix="cucpu_sig_")
    os.makedirs(workdir, exist_ok=True)
    ours_names = declared_names(args.cxx, args.ours, headers)
    nv_names = declared_names(args.cxx, args.nvidia, headers)
    common = [n for n in ours_names if n in set(nv_names)]
    ours = signatures(args.cxx, args.ours, headers, common, workdir, "ours")
    nv = signatures(args.cxx, args.nvidia, headers, common, workdir, "nvidia")
    both = [n for n in common if n in ours and n in nv]
    bad = [n for n in both if ours[n] != nv[n]]
    for n in bad:
        print("SIGNATURE %-45s ours=%s nvidia=%s" % (n, ours[n].strip(), nv[n].strip()))
    pfn = [n for n in both if n.startswith("PFN_")]
    print("compared %d entry point signatures and %d PFN_ types: %d mismatches "
          "(ours declares %d, NVIDIA %d)" % (len(both) - len(pfn), len(pfn), len(bad),
                                             len(ours_names), len(nv_names)))
    only_nv = sorted(set(nv_names) - set(ours_names))
    if only_nv:
        print("declared only by NVIDIA (%d): %s" % (len(only_nv), " ".join(only_nv)))
    bad_pfn = [n for n in only_nv if n.startswith("PFN_")]
    n_macros, bad_macros = check_pfn_macros(args.cxx, args.ours, headers, workdir)
    print("unversioned PFN_ macros of ours: %d, each naming a type: %s" % (
        n_macros, "no" if bad_macros else "yes"))
    return 1 if bad or bad_pfn or bad_macros else 0


if __name__ == "__main__":
    sys.exit(main())
