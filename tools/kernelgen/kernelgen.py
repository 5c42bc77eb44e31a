#!/usr/bin/env python3
"""Generates random valid CUDA kernels for differential testing.

    kernelgen.py --seed N [--count K] [--out DIR] [--volatile-warp-sync]

writes k<seed>.cu and k<seed>.json for the seeds N .. N+K-1. Each kernel is
a function of its seed alone: `extern "C" __global__ void k(const int *in,
int *out, float *fout, unsigned n)`, launched with the grid and block of its
.json sidecar (see shapes.py for the buffer layout and README.md for the
rules that keep the kernels free of races and undefined behaviour).
"""

import argparse
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from control import Generator  # noqa: E402
from shapes import NACC, choose_shape  # noqa: E402
from state import Ctx, Interval  # noqa: E402
from stmts import DIGEST  # noqa: E402

PROLOGUE = """\
extern "C" __global__ void k(const int *in, int *out, float *fout,
                             unsigned n) {{
  __shared__ int sh[{nt}];
  __shared__ int acc[{nacc}];
  const unsigned tid =
      threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned nt = blockDim.x * blockDim.y * blockDim.z;
  const unsigned bid = blockIdx.x + gridDim.x * blockIdx.y;
  const unsigned gid = bid * nt + tid;
  const unsigned total = gridDim.x * gridDim.y * nt;
  const unsigned gab = total + gridDim.x * gridDim.y * (nt + {nacc}u);
  unsigned a = (unsigned)in[gid % n] ^ tid;
  unsigned b = tid * 0x9e3779b9u + bid;
  unsigned c = (unsigned)in[(tid * 7u + 3u) % n];
  unsigned d = {d}u;
  unsigned u0 = bid * 7u + n;
  unsigned u1 = (unsigned)in[(bid * 13u + 1u) % n];
  unsigned u2 = {u2}u;
  float f0 = (float)(a & 255u);
  float f1 = (float)(tid & 15u) + 1.0f;
  for (unsigned j = tid; j < {nacc}u; j += nt)
    acc[j] = (int)(0x9e3779b9u * (j + 1u));
  sh[tid] = (int)(a ^ b);
  __syncthreads();
"""

EPILOGUE = """\
  __syncthreads();
  out[gid] = {digest};
  fout[2u * gid] = f0;
  fout[2u * gid + 1u] = f1;
  for (unsigned j = tid; j < nt + {nacc}u; j += nt)
    out[total + bid * (nt + {nacc}u) + j] = j < nt ? sh[j] : acc[j - nt];
}}
"""


def generate(seed, volatile_warp_sync=False):
    """The source and the sidecar (a dict) of the kernel of `seed`."""
    rng = random.Random(f"kernelgen-{seed}")
    shape = choose_shape(rng)
    gen = Generator(rng, shape, warp=rng.random() < 0.7,
                    volatile_warp_sync=volatile_warp_sync)
    gen.budget = rng.randint(10, 75)
    ctx = Ctx(converged=gen.warp)
    st = Interval()
    while len(gen.lines) < gen.budget:
        gen.statement(ctx, st)
    head = PROLOGUE.format(nt=shape.threads, nacc=NACC,
                           d=rng.randint(0, 99), u2=rng.randint(0, 99))
    tail = EPILOGUE.format(digest=DIGEST, nacc=NACC)
    source = (f"// kernelgen seed {seed}: grid {shape.grid} block "
              f"{shape.block}\n" + head + "\n".join(gen.lines) + "\n" + tail)
    return source, shape.sidecar(seed, gen.features)


def write_kernel(seed, out_dir, volatile_warp_sync=False):
    """Write k<seed>.cu and k<seed>.json into out_dir; return both paths."""
    source, sidecar = generate(seed, volatile_warp_sync)
    base = os.path.join(out_dir, f"k{seed}")
    with open(base + ".cu", "w") as f:
        f.write(source)
    with open(base + ".json", "w") as f:
        json.dump(sidecar, f, indent=1)
        f.write("\n")
    return base + ".cu", base + ".json"


def main():
    """Command line entry point."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--count", type=int, default=1)
    p.add_argument("--out", default=".")
    p.add_argument("--volatile-warp-sync", action="store_true",
                   help="also generate warp-synchronous reductions "
                        "through volatile shared memory")
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for seed in range(args.seed, args.seed + args.count):
        cu, _ = write_kernel(seed, args.out, args.volatile_warp_sync)
        print(cu)


if __name__ == "__main__":
    main()
