#!/usr/bin/env python3
"""Runs the kernel tests that load PTX (ctest label kernel_ptx), the DISABLED
known failures included, and reports which pass and the first error of each
that fails, grouped by the PTX instruction or construct that stops it.

  tools/kernel-ptx-status.py [--build build/ci] [-j 2] [-R regex] [--disabled]
                             [--nvcc-ptx dir] [--runner kernel_runner]
                             [--load results.json] [--save results.json]
                             [--report status.md]
                             [--write-known-failures tests/kernels/ptx/known-failures.cmake]

Each test runs as ctest would run it (its command, environment and working
folder; PASS_REGULAR_EXPRESSION where it has one). --nvcc-ptx runs the
ptx-nvcc tests on the PTX of another folder (nvcc's PTX for sm_90, from
ARCH=sm_90 tools/nvcc-kernel-ptx.sh); --runner runs another kernel_runner
(a copy of the build's, with LD_LIBRARY_PATH naming a copy of its libcuda,
while the build goes on). --write-known-failures
rewrites the list of known failures (tests/kernels/ptx/known-failures.cmake)
from the results: a kernel source whose tests all fail in every mode with
the same error is one line, any other failure a line of its own.
"""

import argparse
import collections
import concurrent.futures
import datetime
import json
import os
import re
import subprocess
import sys

MODES = ("default", "fallback", "memcheck")


def load_tests(build, regex, nvcc_ptx, runner):
    # Only tests/kernels' folder: the rest of the build's tests need not load.
    cmd = ["ctest", "--test-dir", os.path.join(build, "tests", "kernels"),
           "--show-only=json-v1", "-L", "^kernel_ptx$"]
    if regex:
        cmd += ["-R", regex]
    data = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
    tests = []
    for t in data["tests"]:
        m = re.fullmatch(r"kernels(?:-(\w+))?\.ptx-(\w+)\.(.+)", t["name"])
        if not m:
            continue
        props = {p["name"]: p["value"] for p in t.get("properties", [])}
        env = dict(os.environ)
        for kv in props.get("ENVIRONMENT", []):
            k, _, v = kv.partition("=")
            env[k] = v
        command = list(t["command"])
        if runner:
            command[0] = os.path.abspath(runner)
        if nvcc_ptx and m.group(2) == "nvcc":
            command[1] = os.path.join(os.path.abspath(nvcc_ptx), os.path.basename(command[1]))
        tests.append({
            "name": t["name"],
            "mode": m.group(1) or "default",
            "origin": m.group(2),
            "test": m.group(3),
            "source": os.path.basename(t["command"][1]).replace(".ptx", ".cu"),
            "command": command,
            "env": env,
            "cwd": props.get("WORKING_DIRECTORY"),
            "pass_regex": props.get("PASS_REGULAR_EXPRESSION", []),
            "disabled": bool(props.get("DISABLED", False)),
        })
    return tests


def first_error(output):
    """The JIT's message if the PTX did not compile, else kernel_runner's
    first line (CUCPU_LOG=errors also logs the calls that kernel_runner
    expects to fail, such as its probe for the number of parameters)."""
    m = re.search(r"PTX JIT compilation failed: (.*?)\.?$", output, re.M)
    if m:
        return m.group(1)
    lines = [l.strip() for l in output.splitlines() if l.strip()]
    for line in lines:
        if not line.startswith("cucpu: "):
            return line[:200]
    return lines[0][:200] if lines else "no output"


def family(error):
    for pattern in (r"the instruction '([\w.]+)'", r"^line \d+: '([\w.]+)'",
                    r"'([\w.]+)' is not supported", r"^line \d+: .*?'([\w.]+)'"):
        m = re.search(pattern, error)
        if m:
            return m.group(1)
    if error.startswith("line "):
        return "parse"
    if error.startswith("timeout"):
        return "timeout"
    if error.startswith("signal"):
        return "crash"
    return "wrong result or launch failure"


def run(test, timeout):
    try:
        p = subprocess.run(test["command"], env=test["env"], cwd=test["cwd"],
                           capture_output=True, text=True, errors="replace",
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return False, f"timeout after {timeout} s"
    output = p.stdout + p.stderr
    if test["pass_regex"]:
        ok = any(re.search(r, output) for r in test["pass_regex"])
    else:
        ok = p.returncode == 0
    if ok:
        return True, ""
    if p.returncode < 0:
        return False, f"signal {-p.returncode}: {first_error(output)}"
    return False, first_error(output)


def report(tests, results, out):
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    head = subprocess.run(["git", "log", "-1", "--format=%h %s"], capture_output=True,
                          text=True).stdout.strip()[:100]
    w = out.write
    w(f"# PTX kernel tests: status\n\n{when}, tree at `{head}` (plus work in progress), "
      "by `tools/kernel-ptx-status.py`.\n\n")
    w("| PTX | mode | pass | fail |\n|---|---|---|---|\n")
    counts = collections.Counter()
    for t in tests:
        counts[(t["origin"], t["mode"], results[t["name"]][0])] += 1
    for origin in ("nvcc", "clang"):
        for mode in MODES:
            p, f = counts[(origin, mode, True)], counts[(origin, mode, False)]
            if p or f:
                w(f"| {origin} | {mode} | {p} | {f} |\n")

    # By family: the first error of each failing (origin, source) group.
    w("\n## Failures by instruction family (first error; tests of the source that fail)\n\n")
    groups = collections.defaultdict(lambda: collections.defaultdict(list))
    for t in tests:
        ok, err = results[t["name"]]
        if not ok:
            groups[family(err)][(t["origin"], t["source"], err)].append(t)
    for fam in sorted(groups, key=lambda f: -sum(len(v) for v in groups[f].values())):
        n = sum(len(v) for v in groups[fam].values())
        w(f"### `{fam}` ({n} test runs)\n\n")
        for (origin, source, err), ts in sorted(groups[fam].items()):
            names = sorted({t["test"] for t in ts})
            modes = sorted({t["mode"] for t in ts}, key=MODES.index)
            shown = ", ".join(names[:6]) + (f", … ({len(names)} tests)" if len(names) > 6 else "")
            w(f"- {origin} `{source}` [{'/'.join(modes)}]: {err} — {shown}\n")
        w("\n")

    w("## Every test (default mode; other modes only where they differ)\n\n")
    w("| test | source | nvcc | clang |\n|---|---|---|---|\n")
    by_test = collections.defaultdict(dict)
    for t in tests:
        by_test[(t["source"], t["test"])][(t["origin"], t["mode"])] = results[t["name"]]
    for (source, name), r in sorted(by_test.items()):
        cells = []
        for origin in ("nvcc", "clang"):
            parts = []
            base = r.get((origin, "default"))
            for mode in MODES:
                res = r.get((origin, mode))
                if res is None or (mode != "default" and res == base):
                    continue
                text = "PASS" if res[0] else f"FAIL: {res[1]}"
                parts.append(text if mode == "default" else f"{mode}: {text}")
            cells.append("; ".join(parts).replace("|", "\\|"))
        w(f"| {name} | {source} | {cells[0]} | {cells[1]} |\n")


def known_failures(tests, results, path):
    with open(path) as f:
        header = [l for l in f.read().splitlines() if l.startswith("#")]
    by_source = collections.defaultdict(list)
    for t in tests:
        by_source[(t["origin"], t["source"])].append(t)
    lines = []
    for (origin, source), ts in sorted(by_source.items()):
        if all(not results[t["name"]][0] for t in ts):
            first = min(ts, key=lambda t: (t["test"], MODES.index(t["mode"])))
            errors = {stable(results[t["name"]][1]) for t in ts}
            reason = stable(results[first["name"]][1])
            if len(errors) > 1:
                reason = f"every test; {first['test']}: {reason}"
            lines.append(f'cucpu_kernel_ptx_known_failure({origin} {source} "{cmake_str(reason)}")')
            continue
        per_test = collections.defaultdict(list)
        for t in ts:
            ok, err = results[t["name"]]
            if not ok:
                per_test[(t["test"], stable(err))].append(t["mode"])
        for (name, err), modes in sorted(per_test.items()):
            modes = sorted(modes, key=MODES.index)
            suffix = "" if len(modes) == len(MODES) or len(
                {t["mode"] for t in ts if t["test"] == name}) == len(modes) else " MODES " + " ".join(modes)
            lines.append(f'cucpu_kernel_ptx_known_failure({origin} {name} "{cmake_str(err)}"{suffix})')
    with open(path, "w") as f:
        f.write("\n".join(header) + "\n\n" + "\n".join(lines) + ("\n" if lines else ""))


def stable(error):
    """The part of a first error that does not change from run to run: a
    wrong value (of uninitialized memory, say) is left out."""
    m = re.match(r"((?:argument \d+ )?element \d+)(?:: got .*|: (.*?) = .*)", error)
    if m:
        return "wrong result: " + m.group(1) + (f": {m.group(2)}" if m.group(2) else "")
    m = re.match(r"(cucpu memcheck: invalid \w+ \w+ of size \d+) at 0x[0-9a-f]+(.*)", error)
    if m:
        return m.group(1) + m.group(2)
    return error


def cmake_str(s):
    return s.replace("\\", "\\\\").replace('"', '\\"').replace("$", "\\$").replace(";", ",")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default="build/ci")
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("-R", dest="regex")
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--disabled", action="store_true",
                    help="run only the known failures (to see which now pass)")
    ap.add_argument("--nvcc-ptx")
    ap.add_argument("--runner")
    ap.add_argument("--save", help="write the results (JSON) to this file")
    ap.add_argument("--load", help="take the results of an earlier --save, run only the tests it lacks")
    ap.add_argument("--report")
    ap.add_argument("--write-known-failures")
    args = ap.parse_args()

    if args.write_known_failures and args.regex:
        sys.exit("--write-known-failures needs every PTX test: leave out -R")
    tests = load_tests(args.build, args.regex, args.nvcc_ptx, args.runner)
    every_test = tests
    if args.disabled:
        tests = [t for t in tests if t["disabled"]]
    if not tests:
        sys.exit("no kernel_ptx tests in " + args.build)
    results = {}
    if args.load:
        with open(args.load) as f:
            results = {k: tuple(v) for k, v in json.load(f).items()}
    with concurrent.futures.ThreadPoolExecutor(args.j) as pool:
        futures = {pool.submit(run, t, args.timeout): t for t in tests
                   if t["name"] not in results}
        for fut in concurrent.futures.as_completed(futures):
            t = futures[fut]
            results[t["name"]] = fut.result()
            ok = results[t["name"]][0]
            if ok == t["disabled"]:
                note = "now passes (known failure)" if ok else "FAILS"
                print(f"{t['name']}: {note} {results[t['name']][1]}", file=sys.stderr)
    if args.save:
        with open(args.save, "w") as f:
            json.dump(results, f, indent=0)
    passed = sum(ok for ok, _ in results.values())
    print(f"{passed} of {len(tests)} PTX kernel test runs pass", file=sys.stderr)
    if args.report:
        with open(args.report, "w") as out:
            report(tests, results, out)
    else:
        report(tests, results, sys.stdout)
    if args.write_known_failures:
        # With --disabled, the tests that ran as usual are taken to pass.
        for t in every_test:
            results.setdefault(t["name"], (True, ""))
        known_failures(every_test, results, args.write_known_failures)


if __name__ == "__main__":
    main()
