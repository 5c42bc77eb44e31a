#!/usr/bin/env bash
# Regenerates the PTX that NVIDIA's nvcc writes for each kernel source of
# tests/kernels, which the kernels.ptx-nvcc.* tests run through cucpu's PTX
# JIT. The PTX is committed test data: the build and CI never run nvcc.
#
#   tools/nvcc-kernel-ptx.sh [nvcc]        (default /usr/local/cuda/bin/nvcc)
#
# writes tests/kernels/ptx/nvcc-<release>/<name>.ptx for every
# tests/kernels/<name>.cu and MANIFEST.md beside them, recording nvcc's
# version and the command that made each file. Each source is compiled for
# sm_75 (cucpu's compute capability); a source nvcc refuses for sm_75 (bf16
# arithmetic needs sm_80) is compiled for the first architecture of
# FALLBACK_ARCHS that nvcc accepts, and the manifest says so.
#
# With ARCH=sm_90 (say) every source is compiled for that architecture into
# nvcc-<release>-<arch>/ instead: newer instruction forms, to check by hand
# (tests/kernels/ptx/README.md).
set -euo pipefail
cd "$(dirname "$0")/.."

nvcc=${1:-/usr/local/cuda/bin/nvcc}
arch=${ARCH:-sm_75}
fallback_archs=(sm_80 sm_86 sm_90)

version_text=$("$nvcc" --version)
release=$(sed -n 's/.*release \([0-9][0-9.]*\),.*/\1/p' <<<"$version_text")
build=$(sed -n 's/^Cuda compilation tools, \(.*\)$/\1/p' <<<"$version_text")
if [[ -z $release ]]; then
  echo "cannot read the release from '$nvcc --version'" >&2
  exit 1
fi

out=tests/kernels/ptx/nvcc-$release
[[ $arch == sm_75 ]] || out=$out-$arch
mkdir -p "$out"
rm -f "$out"/*.ptx

manifest=$out/MANIFEST.md
{
  echo "# PTX of tests/kernels by NVIDIA's nvcc"
  echo
  echo "Written by \`tools/nvcc-kernel-ptx.sh\` with nvcc $build"
  echo "(\`$(grep -m1 '^Build ' <<<"$version_text")\`), from the repository root:"
  echo
  echo "| File | Command |"
  echo "|---|---|"
} >"$manifest"

for src in tests/kernels/*.cu; do
  name=$(basename "$src" .cu)
  made=
  for a in "$arch" "${fallback_archs[@]}"; do
    [[ $a == "$arch" || $arch == sm_75 ]] || continue
    cmd=(nvcc -ptx "-arch=$a" -o "$out/$name.ptx" "$src")
    if "$nvcc" "${cmd[@]:1}" 2>"$out/$name.err"; then
      made=$a
      break
    fi
  done
  if [[ -z $made ]]; then
    echo "nvcc cannot compile $src:" >&2
    cat "$out/$name.err" >&2
    rm -f "$out/$name.err"
    exit 1
  fi
  rm -f "$out/$name.err"
  note=
  [[ $made == "$arch" ]] || note=" ($arch refused: $(basename "$src") needs $made)"
  echo "| \`$name.ptx\` | \`${cmd[*]}\`$note |" >>"$manifest"
  echo "$out/$name.ptx: -arch=$made"
done
