#!/usr/bin/env bash
# bench/kernels/ptx-nvcc-13.0/regenerate.sh: writes nvcc's PTX of every
# bench/kernels/*.cu and of samples/matrixMul/matrixMul_kernel.cu (the
# module-load benchmark's kernel) into this folder, one <name>.ptx each.
# Needs NVIDIA's nvcc 13.0 ($NVCC, default /usr/local/cuda/bin/nvcc); the
# benchmarks and CI only read the committed files and never need nvcc.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../.." && pwd)
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}

if ! "$nvcc" --version | grep -q 'release 13\.0,'; then
  echo "regenerate.sh: $nvcc is not nvcc 13.0 (this folder holds 13.0's PTX):" >&2
  "$nvcc" --version >&2
  exit 1
fi

for src in "$root"/bench/kernels/*.cu "$root"/samples/matrixMul/matrixMul_kernel.cu; do
  name=$(basename "$src" .cu)
  (cd "$root" && "$nvcc" -ptx -arch=sm_75 -o "$here/$name.ptx" "${src#"$root"/}")
  echo "$name.ptx"
done
