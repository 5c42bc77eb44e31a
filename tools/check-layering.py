#!/usr/bin/env python3
"""Checks that each layer of cucpu includes only the layers below it.

    check-layering.py [ROOT]

Every quoted #include of a source or header in a layer's folder is resolved
as the compiler resolves it (the including file's folder first, then the
include roots the CMake targets give) and must land in the same layer or one
it may use. Prints each violation as FILE:LINE: and exits 1 if there is one.
"""
import pathlib
import re
import sys

# Layer -> the layers it may include, besides itself. The public headers
# (include/) are below everything.
ALLOWED = {
    "include": set(),
    "loader": {"include"},
    "ptx": {"include"},
    "modules/abi": {"include"},
    # The pass library needs no driver or loader state (its CMakeLists.txt).
    "modules/passes": {"modules/abi", "ptx", "include"},
    "modules": {"modules/passes", "modules/abi", "loader", "ptx", "include"},
    "driver/core": {"modules", "modules/passes", "modules/abi", "loader",
                    "ptx", "include"},
    "driver/api": {"driver/core", "modules", "modules/passes", "modules/abi",
                   "loader", "ptx", "include"},
    "runtime": {"include"},
}
# Where quoted includes are looked up after the including file's folder, in
# the order the targets' include directories give.
INCLUDE_ROOTS = ["driver", "modules/include", "modules/abi/include",
                 "modules/passes/include", "modules/image/include", "modules",
                 "loader/include", "loader", "ptx", "include", "runtime"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def layer_of(path, root):
    rel = path.relative_to(root).as_posix()
    for layer in sorted(ALLOWED, key=len, reverse=True):
        if rel == layer or rel.startswith(layer + "/"):
            return layer
    return None


def resolve(name, including, root):
    candidate = including.parent / name
    if candidate.is_file():
        return candidate
    for base in INCLUDE_ROOTS:
        candidate = root / base / name
        if candidate.is_file():
            return candidate
    return None  # A system or generated header.


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    problems = 0
    for layer in ALLOWED:
        for path in sorted((root / layer).rglob("*")):
            if path.suffix not in {".h", ".cpp", ".def", ".inc"}:
                continue
            lines = path.read_text(errors="replace").splitlines()
            for number, line in enumerate(lines, 1):
                match = INCLUDE.match(line)
                if not match:
                    continue
                target = resolve(match.group(1), path, root)
                if target is None:
                    continue
                to = layer_of(target, root)
                if to is None or to == layer or to in ALLOWED[layer]:
                    continue
                print(f"{path.relative_to(root)}:{number}: {layer} includes "
                      f"{target.relative_to(root)} ({to}), which it may not")
                problems += 1
    if problems:
        print(f"{problems} include(s) break the layering")
        return 1
    print("layering: every include goes down")
    return 0


if __name__ == "__main__":
    sys.exit(main())
