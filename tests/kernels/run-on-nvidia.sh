#!/usr/bin/env bash
# Runs every kernel test (ctest label "kernel", or $KERNEL_TEST_LABEL) of a
# build of tests/kernels, each on its own with a timeout, and records the
# outcome. Tests that do not pass are run once more, serially, to tell real
# failures from interference between parallel processes. Made for the
# standalone build against NVIDIA's driver (tests/kernels/CMakeLists.txt says
# how to configure it), but works on any build of the kernel tests, cucpu's
# included.
#
# usage: tests/kernels/run-on-nvidia.sh BUILD_DIR OUT_DIR [JOBS]
# writes OUT_DIR/summary.txt (one "STATUS test" line per test and the
# totals), OUT_DIR/log.txt (each test's command line and full output, in name
# order) and, where nvidia-smi and nvcc exist, OUT_DIR/environment.txt.
set -u
BUILD=$(cd "$1" && pwd)
OUT=$2
JOBS=${3:-8}
TIMEOUT=${KERNEL_TEST_TIMEOUT:-60}
LABEL=${KERNEL_TEST_LABEL:-kernel} # kernel_extra: CUCPU_KERNEL_EXTRA_TESTS's
mkdir -p "$OUT/cases"
OUT=$(cd "$OUT" && pwd)
export BUILD OUT TIMEOUT

if command -v nvidia-smi >/dev/null; then
  {
    nvidia-smi --query-gpu=name,compute_cap,driver_version,memory.total --format=csv
    nvidia-smi | grep -m1 "Driver Version"
    command -v nvcc >/dev/null && nvcc --version | tail -2
    grep -E '^CUCPU_(NVIDIA_INCLUDE_DIR|NVIDIA_LIBCUDA|NVCC|NVCC_ARCH)[:=]' \
      "$BUILD/CMakeCache.txt"
    g++ --version | head -1
  } >"$OUT/environment.txt" 2>&1
fi

# One test through ctest (so that the registration, PASS_REGULAR_EXPRESSION
# included, is exactly what ctest runs); prints "STATUS name".
run_one() {
  local name=$1 log="$OUT/cases/$1.log" status rc
  ctest --test-dir "$BUILD" -R "^${name//./\\.}\$" --timeout "$TIMEOUT" -V \
    >"$log.ctest" 2>&1
  rc=$?
  # Keep the test's own lines (command, output, result), not ctest's chatter.
  grep -E '^[0-9]+: |Test +#[0-9]+:|No tests were found' "$log.ctest" >"$log"
  rm -f "$log.ctest"
  if [ $rc -eq 0 ] && grep -q 'Passed' "$log"; then status=PASS
  elif grep -q '\*\*\*Timeout' "$log"; then status=TIMEOUT
  elif grep -q 'Exception' "$log"; then status=CRASH
  elif grep -q 'No tests were found' "$log"; then status=MISSING
  else status=FAIL
  fi
  echo "$status $name"
}
export -f run_one

ctest --test-dir "$BUILD" -L "^$LABEL\$" -N |
  sed -n 's/^ *Test *#[0-9]*: *//p' | sort >"$OUT/cases.txt"
if [ ! -s "$OUT/cases.txt" ]; then
  echo "no tests labelled $LABEL in $BUILD" >&2
  exit 1
fi

xargs -P "$JOBS" -L 1 bash -c 'run_one "$0"' <"$OUT/cases.txt" |
  sort -k2 >"$OUT/first-pass.txt"

: >"$OUT/summary.txt"
while read -r status name; do
  case $status in
  PASS) echo "PASS $name" >>"$OUT/summary.txt" ;;
  *)
    cp "$OUT/cases/$name.log" "$OUT/cases/$name.first.log"
    again=$(run_one "$name")
    if [ "${again%% *}" = PASS ]; then
      echo "FLAKY(first:$status) $name" >>"$OUT/summary.txt"
    else
      # The test's last line of output says why (kernel_runner's message).
      why=$(grep -E '^[0-9]+: ' "$OUT/cases/$name.log" |
        grep -v -E '^[0-9]+: (Test command|Working Directory|Test timeout|Environment)' |
        tail -1 | sed 's/^[0-9]*: //')
      echo "$again  # $why" >>"$OUT/summary.txt"
    fi
    ;;
  esac
done <"$OUT/first-pass.txt"

: >"$OUT/log.txt"
while read -r status name _; do
  {
    echo "===== $status $name"
    if [ -f "$OUT/cases/$name.first.log" ]; then
      echo "--- first run (parallel)"
      cat "$OUT/cases/$name.first.log"
      echo "--- second run (serial)"
    fi
    cat "$OUT/cases/$name.log"
  } >>"$OUT/log.txt"
done <"$OUT/summary.txt"
rm -rf "$OUT/cases" "$OUT/first-pass.txt" "$OUT/cases.txt"

S=$OUT/summary.txt
total=$(wc -l <"$S")
passed=$(grep -c '^PASS ' "$S")
flaky=$(grep -c '^FLAKY' "$S")
failed=$((total - passed - flaky))
printf -- '----\ntests:   %s\npassed:  %s\nflaky:   %s\nfailed:  %s\n' \
  "$total" "$passed" "$flaky" "$failed" | tee -a "$S"
grep -v -E '^(PASS|----|tests|passed|flaky|failed)' "$S" || true
