#!/usr/bin/env bash
# Packs programs built here, with every shared library they load, into one
# relocatable xz tarball for a Linux x86-64 machine that has none of this
# project's dependencies (the 16-core host of the GPU machine, say).
#
#   tools/bundle.sh [--clang] [--include] [--stub SONAME[=SYMBOL]]...
#                   OUT.tar.xz PROGRAM...
#
# The tarball unpacks into bundle/: the programs in bin/, their libraries in
# lib/ (the closure `ldd` gives, less the C library's own, which the target
# machine has), and bin/env.sh, which sets PATH and LD_LIBRARY_PATH:
#
#   tar xJf OUT.tar.xz && . bundle/bin/env.sh && bench-cucpu ...
#
# --clang adds clang-19 and its resource headers (lib/clang/19), which cucc
# runs; --include adds the project's include/ (cuda.h, the device headers),
# which cucc finds next to its bin/ as an installed cucc does. --stub puts
# an empty library in place of SONAME (defining the data symbol SYMBOL, if
# given): for a library that is loaded but never called, where the bundle
# must stay small (libLLVM needs libz3.so.4 only for clang's static
# analyzer, and libxml2 needs ICU's 30 MB of data only for encodings LLVM
# never converts: --stub libz3.so.4 --stub libicudata.so.72=icudt72_dat).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
with_clang=0 with_include=0 stubs=()
while [[ $# -gt 0 && $1 == --* ]]; do
  case $1 in
    --clang) with_clang=1 ;;
    --include) with_include=1 ;;
    --stub) stubs+=("$2"); shift ;;
    *) echo "bundle.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
if [[ $# -lt 2 ]]; then
  sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
out=$(realpath -m "$1")
shift

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bundle/bin" "$stage/bundle/lib"

programs=("$@")
if [[ $with_clang == 1 ]]; then
  clang=$(readlink -f "$(command -v clang-19)")
  cp "$clang" "$stage/bundle/bin/clang-19"
  resource=$("$clang" -print-resource-dir)
  mkdir -p "$stage/bundle/lib/clang/19"
  cp -r "$resource/include" "$stage/bundle/lib/clang/19/"
  programs+=("$clang")
fi
for program in "$@"; do
  cp -L "$program" "$stage/bundle/bin/"
done
if [[ $with_include == 1 ]]; then
  cp -r "$root/include" "$stage/bundle/include"
fi

# Every library the programs load, by the name the dynamic linker asks for;
# the C library and the dynamic linker stay the target machine's.
for program in "${programs[@]}"; do
  ldd "$program" | awk '/=> \// { print $1, $3 }'
done | sort -u | while read -r name path; do
  case $name in
    libc.so.* | libm.so.* | libdl.so.* | libpthread.so.* | librt.so.* | \
      ld-linux*) continue ;;
  esac
  cp -L "$path" "$stage/bundle/lib/$name"
done
for stub in ${stubs[@]+"${stubs[@]}"}; do
  soname=${stub%%=*} source="int cucpu_bundle_stub;"
  [[ $stub == *=* ]] && source+=" const char ${stub#*=}[16] = {0};"
  echo "$source" | cc -shared -fPIC -x c -Wl,-soname,"$soname" \
    -o "$stage/bundle/lib/$soname" -
done

cat >"$stage/bundle/bin/env.sh" <<'EOF'
# Sourced: puts the bundle's programs and libraries first.
bundle_bin=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export PATH="$bundle_bin:$PATH"
export LD_LIBRARY_PATH="$bundle_bin/../lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
EOF

tar -C "$stage" -cf - bundle | xz -T0 -6 >"$out"
echo "bundle.sh: $out, $(du -h "$out" | cut -f1)"
