#!/usr/bin/env python3
"""Loads many mutations of valid module images, each in its own process.

Each mutant (byte flips, truncations, extreme values written over the ELF
and fat-binary header fields) is written to a file and loaded by a replay
build of sizeless_load_fuzzer (tests/fuzz), which places it before an
inaccessible guard page and hands it to cuModuleLoadData,
cuModuleLoadDataEx and cuModuleLoadFatBinary. An error code is the
expected answer; a crash (a signal), a hang (past --timeout) or a
sanitizer report is a finding, and the mutant is kept under --findings.

  tools/mutate-images.py --loader build/dev/tests/fuzz/sizeless_load_fuzzer \\
      --count 1500 --seed 1 build/dev/tests/fuzz/corpus/*.cubin
"""
import argparse
import concurrent.futures
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile

# Offsets of the ELF64 header fields that say where things are.
ELF_FIELDS = [(24, 8), (32, 8), (40, 8), (48, 4), (52, 2), (54, 2), (56, 2),
              (58, 2), (60, 2), (62, 2)]
# The fat-binary header: version, header size, size of the entries.
FAT_FIELDS = [(4, 2), (6, 2), (8, 8)]
EXTREMES = [0, 1, 0x7f, 0x80, 0xff, 0x7fff, 0xffff, 0x7fffffff, 0xffffffff,
            0x80000000, 1 << 32, (1 << 63) - 1, (1 << 64) - 1]


def elf_sections(image):
    """(offset of each section header, section count) of an ELF64 image."""
    if image[:4] != b"\x7fELF" or len(image) < 64:
        return []
    shoff, = struct.unpack_from("<Q", image, 40)
    shnum, = struct.unpack_from("<H", image, 60)
    return [shoff + 64 * i for i in range(shnum)
            if shoff + 64 * (i + 1) <= len(image)]


def mutate(image, rng):
    """One mutant of \\p image."""
    data = bytearray(image)
    kind = rng.randrange(4)
    if kind == 0:  # Flip bits of a few bytes.
        for _ in range(rng.randint(1, 4)):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    elif kind == 1:  # Truncate.
        del data[rng.randrange(1, len(data)):]
    else:  # An extreme value over a header or section-header field.
        if data[:4] == b"\x7fELF":
            fields = list(ELF_FIELDS)
            for at in elf_sections(image):
                # sh_name, sh_type, sh_offset, sh_size, sh_link, sh_entsize
                fields += [(at, 4), (at + 4, 4), (at + 24, 8), (at + 32, 8),
                           (at + 40, 4), (at + 56, 8)]
        else:
            fields = list(FAT_FIELDS) + [(16 + o, n) for o, n in
                                         [(4, 4), (8, 8), (16, 4)]]
        offset, width = rng.choice(fields)
        value = rng.choice(EXTREMES) & ((1 << (8 * width)) - 1)
        if offset + width <= len(data):
            data[offset:offset + width] = value.to_bytes(width, "little")
    return bytes(data)


def run_one(loader, path, timeout):
    """None if the load ended normally, else what went wrong."""
    env = dict(os.environ, CUDA_CACHE_DISABLE="1")
    try:
        done = subprocess.run([loader, path], capture_output=True,
                              timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return f"hung (over {timeout} s)"
    if done.returncode != 0:
        tail = done.stderr.decode(errors="replace").strip().splitlines()[-3:]
        return f"exit status {done.returncode}: " + " | ".join(tail)
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--loader", required=True,
                        help="a replay build of sizeless_load_fuzzer")
    parser.add_argument("--count", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=os.cpu_count())
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--findings", default="mutation-findings")
    parser.add_argument("images", nargs="+")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    originals = [open(p, "rb").read() for p in args.images]
    work = tempfile.mkdtemp(prefix="cucpu-mutants-")
    paths = []
    for i in range(args.count):
        path = os.path.join(work, f"mutant-{i:05d}")
        with open(path, "wb") as out:
            out.write(mutate(rng.choice(originals), rng))
        paths.append(path)

    findings = 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = pool.map(lambda p: (p, run_one(args.loader, p,
                                                 args.timeout)), paths)
        for path, problem in results:
            if problem:
                findings += 1
                os.makedirs(args.findings, exist_ok=True)
                shutil.copy(path, args.findings)
                print(f"{os.path.basename(path)}: {problem}")
    shutil.rmtree(work)
    print(f"{args.count} mutants of {len(originals)} images (seed "
          f"{args.seed}): {findings} crashed or hung")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
