#!/usr/bin/env python3
"""Checks texture_facts' output on cucpu against NVIDIA's.

usage: check.py CUCPU_OUTPUT NVIDIA_OUTPUT DEVIATIONS

Applies every block of DEVIATIONS (the "-" lines NVIDIA printed become the
"+" lines cucpu prints) to NVIDIA's output and exits 1, showing a diff,
unless the result is exactly cucpu's output.
"""
import difflib
import sys


def read_deviations(path):
    blocks, minus, plus = [], [], []
    for line in open(path).read().splitlines() + [""]:
        if line.startswith("- "):
            minus.append(line[2:])
        elif line.startswith("+ "):
            plus.append(line[2:])
        elif minus or plus:
            blocks.append(("\n".join(minus), "\n".join(plus)))
            minus, plus = [], []
    return blocks


def main():
    cucpu, nvidia, deviations = sys.argv[1:4]
    expected = open(nvidia).read()
    for old, new in read_deviations(deviations):
        if old + "\n" not in expected:
            print(f"deviation not found in NVIDIA's output:\n{old}")
            return 1
        expected = expected.replace(old + "\n", new + "\n", 1)
    actual = open(cucpu).read()
    if actual == expected:
        print("texture_facts: cucpu agrees with NVIDIA's driver except the "
              "documented deviations")
        return 0
    sys.stdout.writelines(difflib.unified_diff(
        expected.splitlines(True), actual.splitlines(True),
        "NVIDIA with deviations", "cucpu"))
    return 1


sys.exit(main())
