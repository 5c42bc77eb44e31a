#!/usr/bin/env python3
"""Shrinks a disagreeing generated kernel while the disagreement stays.

    reduce.py FINDING_DIR [--mode default] [--against fallback] [--out F]

FINDING_DIR holds k<seed>.cu and k<seed>.json (as campaign.py saves them).
An edit is kept while `--against` still succeeds and `--mode` still gives
another result. Only edits that keep a generated kernel valid are tried:
cutting straight-line statements, whole if/loop constructs, else branches
and if wrappers; barriers, loop counters, the prologue and the epilogue
stay. Fewer blocks are tried first. Writes FINDING_DIR/reduced.cu (or
--out) and a matching .json.
"""

import argparse
import glob
import json
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import runs  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


def indent(line):
    """The number of leading spaces."""
    return len(line) - len(line.lstrip())


def closing(lines, i):
    """Index of the line that closes the construct opened at line i
    (through `} else {`), and of its `} else {` line or None."""
    else_at = None
    for j in range(i + 1, len(lines)):
        s = lines[j]
        if indent(s) == indent(lines[i]) and s.lstrip().startswith("}"):
            if s.strip() == "} else {":
                else_at = j
            else:
                return j, else_at
    return None, None


def body_range(lines):
    """The generated statements: after the prologue's barrier, before the
    epilogue's."""
    start = next(i for i, s in enumerate(lines)
                 if s.startswith("  sh[tid] = (int)(a ^ b);")) + 2
    end = max(i for i, s in enumerate(lines) if s == "  __syncthreads();")
    return start, end


def line_edits(lines, i):
    """Edited copies of lines that change line i: cut or unwrap the
    construct it opens, or cut the statement it holds."""
    s = lines[i].strip()
    if s.endswith("{") and not s.startswith("}"):
        j, k = closing(lines, i)
        if j is None:
            return
        yield lines[:i] + lines[j + 1:]
        if s.startswith("if ") and k is not None:
            yield lines[:k] + [lines[j]] + lines[j + 1:]
            yield lines[:i] + lines[i + 1:k] + lines[j + 1:]
        elif s.startswith("if "):
            yield lines[:i] + lines[i + 1:j] + lines[j + 1:]
        return
    # Keep barriers (cutting one may make a race), loop counters, the
    # increments of while and do loops, and the body of a brace-less for.
    if not s.endswith(";") or "__syncthreads()" in s or s.startswith("}") \
            or re.match(r"(unsigned )?i\d+ (=|\+=) ", s) \
            or (lines[i - 1].strip().startswith("for ") and
                not lines[i - 1].rstrip().endswith("{")):
        return
    yield lines[:i] + lines[i + 1:]


class Reducer:
    """Compiles and runs candidates in a scratch folder."""

    def __init__(self, args):
        """Tools and modes from the command line."""
        self.args = args
        self.work = tempfile.mkdtemp(prefix="kernelgen-reduce-")

    def interesting(self, lines, side):
        """Whether the kernel still shows the disagreement."""
        src = os.path.join(self.work, "r.cu")
        cubin = os.path.join(self.work, "r.cubin")
        with open(src, "w") as f:
            f.write("\n".join(lines) + "\n")
        if runs.compile_kernel([self.args.cucc, "-cubin"], src, cubin, 60):
            return False
        res = {}
        for mode in (self.args.against, self.args.mode):
            cmd = runs.diffrun_cmd(self.args.diffrun, cubin, side)
            st, out, err = runs.run(cmd, self.args.timeout,
                                    runs.mode_env(mode))
            res[mode] = runs.classify(st, out, err, self.args.timeout)
            if not res[self.args.against].startswith("ok "):
                return False
        return res[self.args.mode] != res[self.args.against]

    def reduce(self, lines, side):
        """Passes over the lines; after a kept edit at line i the pass goes
        on at line i; until a pass keeps nothing."""
        progress = True
        while progress:
            progress, i = False, body_range(lines)[0]
            while i < body_range(lines)[1]:
                edit = next((c for c in line_edits(lines, i)
                             if self.interesting(c, side)), None)
                if edit is None:
                    i += 1
                    continue
                lines, progress = edit, True
                print(f"{len(lines)} lines", flush=True)
        return lines


def main():
    """Reduce one finding."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("finding")
    p.add_argument("--mode", default="default")
    p.add_argument("--against", default="fallback")
    p.add_argument("--cucc", default=os.path.join(
        REPO, "build/dev/tools/cucc/cucc"))
    p.add_argument("--diffrun", default=os.path.join(
        REPO, "build/dev/tests/differential/diffrun"))
    p.add_argument("--timeout", type=int, default=20)
    p.add_argument("--out")
    args = p.parse_args()
    cu = sorted(glob.glob(os.path.join(args.finding, "k*.cu")))[0]
    with open(cu[:-3] + ".json") as f:
        side = json.load(f)
    lines = open(cu).read().splitlines()
    red = Reducer(args)
    if not red.interesting(lines, side):
        sys.exit("reduce: the kernel does not show the disagreement")
    for grid in ([1, 1, 1], [2, 1, 1]):
        smaller = dict(side, grid=grid)
        if grid[0] < side["grid"][0] * side["grid"][1] and \
                red.interesting(lines, smaller):
            side = smaller
            break
    lines = red.reduce(lines, side)
    out = args.out or os.path.join(args.finding, "reduced.cu")
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(out[:-3] + ".json", "w") as f:
        json.dump(side, f)
    print(out)


if __name__ == "__main__":
    main()
