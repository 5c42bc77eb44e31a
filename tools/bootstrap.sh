#!/usr/bin/env bash
# One command from a fresh Debian 12 machine to a result (README.md, "Quick start").
#
#   tools/bootstrap.sh samples        build (release) and run every sample, showing its output
#   tools/bootstrap.sh test [PRESET...]
#                                     build and run the whole test suite with ctest, once per
#                                     preset; default: ci asan tsan (what CI runs, through .ci/run)
#
# First it installs the Debian packages that are missing (apt-get update once, then
# apt-get install of only those; sudo only when not root). CUCPU_SKIP_DEPS=1 skips that step.
# With CI=true, warnings are errors in every configuration (CUCPU_WERROR=ON).
# A failing preset does not stop the next one; the exit status is non-zero if any failed.
set -euo pipefail

readonly PACKAGES=(
  cmake ninja-build g++ pkg-config
  llvm-19-dev clang-19 libclang-cpp19-dev libclang-19-dev
  libelf-dev libgtest-dev libgmock-dev libbenchmark-dev
  pocl-opencl-icd ocl-icd-opencl-dev python3
  libegl-dev libgl-dev libegl-mesa0 libgl1-mesa-dri
  gdb clang-format-19
  libthrust-dev libcub-dev
)

usage() {
  sed -n '2,12s/^# \{0,1\}//p' "$0" >&2
  exit 2
}

log() { printf '\n==> %s\n' "$*"; }

install_packages() {
  if [[ "${CUCPU_SKIP_DEPS:-0}" == 1 ]]; then
    return
  fi
  if ! command -v dpkg-query >/dev/null || ! command -v apt-get >/dev/null; then
    echo "bootstrap: no dpkg/apt-get here; install the equivalents of these yourself:" >&2
    echo "  ${PACKAGES[*]}" >&2
    return
  fi
  local missing=() pkg
  for pkg in "${PACKAGES[@]}"; do
    if [[ "$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null)" != "install ok installed" ]]; then
      missing+=("$pkg")
    fi
  done
  if ((${#missing[@]} == 0)); then
    echo "bootstrap: all ${#PACKAGES[@]} Debian packages are installed"
    return
  fi
  local sudo=()
  if ((EUID != 0)); then
    command -v sudo >/dev/null || {
      echo "bootstrap: not root and no sudo; as root run: apt-get install ${missing[*]}" >&2
      exit 1
    }
    sudo=(sudo)
  fi
  log "installing ${missing[*]}"
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y --no-install-recommends "${missing[@]}"
}

# Extra configure arguments: in CI, warnings are errors in every configuration.
configure_args() {
  if [[ "${CI:-}" == true ]]; then
    echo "-DCUCPU_WERROR=ON"
  fi
}

# cmake --preset, then the build and test steps for one preset.
configure() {
  local preset=$1
  log "configure: $preset"
  # shellcheck disable=SC2046 # the extra arguments are words
  cmake --preset "$preset" $(configure_args)
}

run_samples() {
  configure release
  log "build: samples"
  cmake --build --preset samples
  log "run: samples"
  ctest --preset samples
}

# The tests of \$1 that failed in its last ctest run, one name per line.
failed_tests() {
  local log="build/$1/Testing/Temporary/LastTestsFailed.log"
  [[ -f $log ]] && cut -d: -f2- "$log"
}

# Runs each failed test of preset \$1 again, alone, and shows what its
# output says of the failure (assertion and sanitizer lines, then its end),
# so that the end of the log (all a CI summary may keep) says what failed
# and why.
report_failures() {
  local preset=$1 name names=()
  # Read the list first: each ctest run below rewrites it.
  mapfile -t names < <(failed_tests "$preset")
  for name in "${names[@]:0:5}"; do
    log "$preset: again, alone: $name"
    ctest --preset "$preset" -R "^${name//./\\.}\$" --output-on-failure \
      </dev/null >"build/$preset/rerun.log" 2>&1 || true
    grep -E -m 25 'Failure|Expected|Which is|Value of|ERROR|SUMMARY|^ +#[0-9]+ |error' \
      "build/$preset/rerun.log" || true
    tail -n 12 "build/$preset/rerun.log"
  done
  log "$preset: failed tests:"
  printf '    %s\n' "${names[@]}"
}

run_tests() {
  local presets=("$@") failed=() preset start
  ((${#presets[@]})) || presets=(ci asan tsan)
  for preset in "${presets[@]}"; do
    start=$SECONDS
    if configure "$preset" &&
      { log "build: $preset"; cmake --build --preset "$preset"; } &&
      { log "test: $preset"; ctest --preset "$preset" --parallel "$(nproc)"; }; then
      log "$preset: passed ($((SECONDS - start)) s)"
    else
      log "$preset: FAILED ($((SECONDS - start)) s)"
      failed+=("$preset")
    fi
  done
  if ((${#failed[@]})); then
    for preset in "${failed[@]}"; do
      report_failures "$preset"
    done
    log "failed: ${failed[*]}"
    return 1
  fi
  log "all passed: ${presets[*]}"
}

main() {
  (($#)) || usage
  cd "$(dirname "$0")/.."
  local what=$1
  shift
  case "$what" in
  samples) (($# == 0)) || usage; install_packages; run_samples ;;
  test) install_packages; run_tests "$@" ;;
  *) usage ;;
  esac
}

main "$@"
