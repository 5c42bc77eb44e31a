#!/usr/bin/env python3
"""Generate a C program that prints the ABI-relevant facts of a header.

The header is run through the C preprocessor (``-E -dD``) so that
conditional sections resolve the way a C11 compiler sees them; only text that
comes from the named header files themselves is analysed.  The emitted probe
prints one fact per line:

    enum     <ENUMERATOR>            <value>
    define   <MACRO>                 <value>     (object-like, integer/pointer valued)
    sizeof   <typedef>               <bytes>
    alignof  <typedef>               <bytes>
    offsetof <typedef>.<member.path> <bytes>
    msizeof  <typedef>.<member.path> <bytes>     (size of the member itself)

A struct or union defined without a typedef (struct cudaDeviceProp {...})
is named struct:<tag> (union:<tag>) in these facts.

Every fact sits on its own source line, tagged with a stable id, so that a
caller can drop the facts a different header does not define (see
run_abi_probe.py).  Only python3 and the C compiler are needed.
"""

import argparse
import os
import re
import subprocess
import sys

IDENT = re.compile(r"[A-Za-z_]\w*")
TOKEN = re.compile(r"\s*(?:([A-Za-z_]\w*)|(0[xX][0-9A-Fa-f]+[uUlL]*|\d+[uUlL]*)|(\.\.\.|<<|>>|->|[{}()\[\];,=*&|+\-~<>!?:/%^.]))")

C_KEYWORDS = {
    "const", "volatile", "restrict", "signed", "unsigned", "short", "long",
    "int", "char", "float", "double", "void", "struct", "union", "enum",
    "_Bool", "bool", "__extension__", "alignas", "_Alignas", "__attribute__",
    "static", "extern", "inline", "typedef", "sizeof",
}


# --------------------------------------------------------------------------
# Preprocessing
# --------------------------------------------------------------------------

def preprocess(cc, include_dirs, headers, defines, std):
    """Return [(file, line_text)] of the preprocessed translation unit."""
    src = "".join('#include "%s"\n' % h for h in headers)
    cmd = [cc, "-E", "-dD", "-std=" + std, "-x", "c", "-"]
    for d in include_dirs:
        cmd += ["-I", d]
    for d in defines:
        cmd += ["-D" + d]
    out = subprocess.run(cmd, input=src, capture_output=True, text=True)
    if out.returncode != 0:
        sys.stderr.write(out.stderr)
        raise SystemExit("preprocessing failed: " + " ".join(cmd))
    lines = []
    cur = None
    marker = re.compile(r'^#\s*(?:line\s+)?\d+\s+"([^"]*)"')
    for line in out.stdout.splitlines():
        m = marker.match(line)
        if m:
            cur = m.group(1)
            continue
        lines.append((cur, line))
    return lines


def select_text(lines, headers):
    """Keep the lines that come from one of the headers (by base name)."""
    names = {os.path.basename(h) for h in headers}
    defines, code = [], []
    for f, line in lines:
        if f is None or os.path.basename(f) not in names:
            continue
        if line.lstrip().startswith("#"):
            defines.append(line.strip())
        else:
            code.append(line)
    return defines, "\n".join(code)


# --------------------------------------------------------------------------
# Tokenizer helpers
# --------------------------------------------------------------------------

def tokenize(text):
    toks, pos = [], 0
    text = text.strip()
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m or m.end() == pos:
            # string/char literals or odd characters: skip one char
            pos += 1
            continue
        toks.append(m.group(m.lastindex))
        pos = m.end()
    return toks


def match_close(toks, i):
    """Index of the bracket closing toks[i]."""
    pairs = {"{": "}", "(": ")", "[": "]"}
    open_, close = toks[i], pairs[toks[i]]
    depth = 0
    for j in range(i, len(toks)):
        if toks[j] == open_:
            depth += 1
        elif toks[j] == close:
            depth -= 1
            if depth == 0:
                return j
    raise ValueError("unbalanced %s" % open_)


def split_top(toks, sep):
    """Split a token list at top-level separators."""
    parts, cur, depth = [], [], 0
    for t in toks:
        if t in "({[":
            depth += 1
        elif t in ")}]":
            depth -= 1
        if t == sep and depth == 0:
            parts.append(cur)
            cur = []
        else:
            cur.append(t)
    if cur:
        parts.append(cur)
    return parts


def strip_attributes(toks):
    """Remove __attribute__((..)), alignas(..), _Alignas(..), __extension__."""
    out, i = [], 0
    while i < len(toks):
        t = toks[i]
        if t in ("__attribute__", "alignas", "_Alignas", "__declspec") and i + 1 < len(toks) and toks[i + 1] == "(":
            i = match_close(toks, i + 1) + 1
            continue
        if t == "__extension__":
            i += 1
            continue
        out.append(t)
        i += 1
    return out


def declarator_name(toks):
    """Name declared by a declarator token list (handles arrays, fn ptrs)."""
    toks = list(toks)
    # drop array bounds and initializers
    if "=" in toks:
        toks = toks[: toks.index("=")]
    i = 0
    flat = []
    while i < len(toks):
        if toks[i] == "[":
            i = match_close(toks, i) + 1
            continue
        flat.append(toks[i])
        i += 1
    # function pointer: ( * name ) ( params )
    for k in range(len(flat) - 2):
        if flat[k] == "(" and flat[k + 1] == "*" and IDENT.fullmatch(flat[k + 2] or ""):
            return flat[k + 2]
    names = [t for t in flat if IDENT.fullmatch(t) and t not in C_KEYWORDS]
    return names[-1] if names else None


# --------------------------------------------------------------------------
# Declaration parsing
# --------------------------------------------------------------------------

class Record:
    """A struct/union body: list of (name, sub_record_or_None)."""

    def __init__(self, kind, members):
        self.kind = kind
        self.members = members

    def paths(self, prefix=""):
        for name, sub in self.members:
            if name is None:
                # anonymous struct/union: members are reachable directly
                if sub is not None:
                    yield from sub.paths(prefix)
                continue
            yield prefix + name
            if sub is not None:
                yield from sub.paths(prefix + name + ".")


def parse_members(toks):
    """Members of a struct/union body (the tokens between its braces)."""
    members = []
    for decl in split_top(toks, ";"):
        decl = strip_attributes(decl)
        if not decl:
            continue
        sub = None
        rest = decl
        # inline struct/union definition
        for k, t in enumerate(decl):
            if t in ("struct", "union") and "{" in decl[k:k + 3]:
                b = decl.index("{", k)
                e = match_close(decl, b)
                sub = Record(t, parse_members(decl[b + 1:e]))
                rest = decl[e + 1:]
                break
            if t in ("struct", "union", "enum"):
                break
        if sub is not None:
            declarators = split_top(rest, ",")
            if not declarators:
                members.append((None, sub))
            for d in declarators:
                members.append((declarator_name(d), sub))
            continue
        # ordinary declaration: type then comma-separated declarators
        parts = split_top(decl, ",")
        first = parts[0]
        members.append((declarator_name(first), None))
        for d in parts[1:]:
            members.append((declarator_name(d), None))
    return members


class HeaderInfo:
    def __init__(self):
        self.enumerators = []     # names, in order
        self.records = {}         # typedef name or "struct:TAG" -> Record
        self.typedefs = []        # every typedef name (for sizeof/alignof)
        self.incomplete = set()   # typedefs of incomplete / function types
        self.tag_typedefs = {}    # typedef name -> "struct:TAG" it names
        self.tags = set()         # every struct/union/enum tag defined
        self.defines = []         # (name, value text)


def c_type(name):
    """The C spelling of a record key: "struct:X" -> "struct X"."""
    return name.replace(":", " ")


def parse_code(code, info):
    toks = tokenize(code)
    # split into top-level statements at ';' (respecting braces)
    stmts, cur, depth = [], [], 0
    for t in toks:
        if t == "{":
            depth += 1
        elif t == "}":
            depth -= 1
        if t == ";" and depth == 0:
            stmts.append(cur)
            cur = []
        else:
            cur.append(t)
    for st in stmts:
        st = strip_attributes(st)
        # extern "C" { ... } leaves a stray 'extern' / braces: drop them
        while st and st[0] in ("extern", "}"):
            st = st[1:]
        if st and st[0] == "{":
            st = st[1:]
        if not st:
            continue
        handle_statement(st, info)


def handle_statement(st, info):
    is_typedef = st[0] == "typedef"
    body = st[1:] if is_typedef else st
    # enum definitions anywhere in the statement
    for k, t in enumerate(body):
        if t == "enum" and "{" in body[k:k + 3]:
            b = body.index("{", k)
            e = match_close(body, b)
            for part in split_top(body[b + 1:e], ","):
                if part and IDENT.fullmatch(part[0]):
                    info.enumerators.append(part[0])
            break
    # struct/union/enum tags defined here, e.g. struct cudaDeviceProp {...}
    if body and body[0] in ("struct", "union", "enum") and len(body) > 2 \
            and IDENT.fullmatch(body[1]) and body[2] == "{":
        info.tags.add(body[1])
        if not is_typedef and body[0] != "enum":
            e = match_close(body, 2)
            info.records["%s:%s" % (body[0], body[1])] = Record(body[0], parse_members(body[3:e]))
    if not is_typedef:
        return
    # find the declarators after the (possibly braced) type
    k = 0
    rec = None
    if body and body[0] in ("struct", "union", "enum"):
        kind = body[0]
        if "{" in body[:3]:
            b = body.index("{")
            e = match_close(body, b)
            if kind != "enum":
                rec = Record(kind, parse_members(body[b + 1:e]))
            k = e + 1
        else:
            k = 2  # struct TAG
    else:
        # skip type-specifier tokens up to the declarator(s)
        k = 0
    rest = body[k:]
    # For non-braced types the declarator is everything; name = declarator_name.
    decls = split_top(rest, ",") if k else [body]
    for d in decls:
        name = declarator_name(d)
        if not name:
            continue
        is_fn = "(" in d and not (d[0] == "(" and d[1:2] == ["*"])
        is_ptr_fn = False
        for j in range(len(d) - 1):
            if d[j] == "(" and d[j + 1] == "*":
                is_ptr_fn = True
        incomplete = False
        if is_fn and not is_ptr_fn:
            incomplete = True
        if body[0] in ("struct", "union") and "{" not in body[:3] and "*" not in d:
            incomplete = True  # typedef struct X Y; without pointer -> maybe incomplete
            if len(body) > 1:
                info.tag_typedefs[name] = "%s:%s" % (body[0], body[1])
        info.typedefs.append(name)
        if incomplete:
            info.incomplete.add(name)
        if rec is not None and "*" not in d and "[" not in d:
            info.records[name] = rec


DEFINE_RE = re.compile(r"^#\s*define\s+([A-Za-z_]\w*)(\(?)\s*(.*)$")


def collect_defines(lines, info):
    seen = {}
    for line in lines:
        m = DEFINE_RE.match(line)
        if not m:
            continue
        name, fnlike, value = m.group(1), m.group(2), m.group(3).strip()
        if fnlike:
            continue
        seen[name] = value
    for name, value in seen.items():
        if not value:
            continue
        if re.match(r"^(__attribute__|__extension__|__declspec|__stdcall|_Pragma)", value):
            continue
        if value.startswith('"'):
            continue
        first = IDENT.match(value)
        if first and value == first.group(0) and (value[:2] == "cu" or value.startswith("__CUDA_API")) \
                and value not in info.enumerators:
            continue  # function name alias
        if first and value == first.group(0) and (value in info.typedefs or value in info.tags):
            continue  # type name alias (cudaStreamAttrID -> cudaLaunchAttributeID)
        if name.startswith("PFN_"):
            continue  # cudaTypedefs.h: PFN_cuX -> PFN_cuX_v<version>, a type
        if re.match(r"^__CUDA_API_PT[DS][SZ]\(", value):
            continue
        if name.startswith("__") or name in ("CUDAAPI", "CUDA_CB"):
            continue
        # must look like an expression built from numbers, identifiers, casts
        if not re.fullmatch(r"[\w\s()\[\]*+\-~<>|&^/%!.,?:]+", value):
            continue
        info.defines.append((name, value))


# --------------------------------------------------------------------------
# Probe emission
# --------------------------------------------------------------------------

def emit_probe(info, headers, extra_prelude="", skip=()):
    out = []
    out.append("/* Generated by gen_abi_probe.py -- do not edit. */")
    out.append("#include <stddef.h>")
    out.append("#include <stdint.h>")
    out.append("#include <stdio.h>")
    if extra_prelude:
        out.append(extra_prelude)
    for h in headers:
        out.append('#include "%s"' % h)
    out.append("int main(void) {")
    n = 0
    facts = []
    for e in info.enumerators:
        facts.append(("enum", e, "(long long)(%s)" % e, None))
    for name, value in info.defines:
        facts.append(("define", name, "(long long)(intptr_t)(%s)" % name, name))
    for t in info.typedefs:
        if t in info.incomplete and info.tag_typedefs.get(t) not in info.records:
            continue
        facts.append(("sizeof", t, "(long long)sizeof(%s)" % t, None))
        facts.append(("alignof", t, "(long long)_Alignof(%s)" % t, None))
    for t, rec in info.records.items():
        ct = c_type(t)
        if ct != t:
            facts.append(("sizeof", t, "(long long)sizeof(%s)" % ct, None))
            facts.append(("alignof", t, "(long long)_Alignof(%s)" % ct, None))
        for path in rec.paths():
            facts.append(("offsetof", "%s.%s" % (t, path), "(long long)offsetof(%s, %s)" % (ct, path), None))
            facts.append(("msizeof", "%s.%s" % (t, path), "(long long)sizeof(((%s *)0)->%s)" % (ct, path), None))
    seen = set()
    for kind, name, expr, guard in facts:
        key = (kind, name)
        if key in seen:
            continue
        seen.add(key)
        n += 1
        if n in skip:
            continue
        line = '    printf("%s %s %%lld\\n", %s); /*@fact %d*/' % (kind, name, expr, n)
        if guard:
            line = "#ifdef %s\n%s\n#endif" % (guard, line)
        out.append("#ifndef ABI_SKIP_%d\n%s\n#endif" % (n, line))
    out.append("    return 0;")
    out.append("}")
    return "\n".join(out) + "\n", n


def analyse(cc, include_dirs, headers, defines=(), std="c11"):
    lines = preprocess(cc, include_dirs, headers, defines, std)
    def_lines, code = select_text(lines, headers)
    info = HeaderInfo()
    parse_code(code, info)
    collect_defines(def_lines, info)
    return info


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cc", default=os.environ.get("CC", "cc"), help="C compiler used for preprocessing")
    ap.add_argument("-I", dest="include_dirs", action="append", default=[], help="include directory")
    ap.add_argument("-D", dest="defines", action="append", default=[], help="preprocessor definition")
    ap.add_argument("--header", action="append", default=[], help="header to analyse (default: cuda.h)")
    ap.add_argument("-o", "--output", help="probe source to write (default: stdout)")
    ap.add_argument("--summary", action="store_true", help="print counts to stderr")
    args = ap.parse_args(argv)
    headers = args.header or ["cuda.h"]
    info = analyse(args.cc, args.include_dirs, headers, args.defines)
    text, n = emit_probe(info, headers)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    if args.summary:
        sys.stderr.write("%d enumerators, %d defines, %d typedefs, %d records, %d facts\n" % (
            len(info.enumerators), len(info.defines), len(info.typedefs), len(info.records), n))
    return 0


if __name__ == "__main__":
    sys.exit(main())
