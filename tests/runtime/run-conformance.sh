#!/usr/bin/env bash
# Runs the runtime conformance suite case by case, each in its own process (as
# ctest does), so that a crash or hang in one case is recorded and the rest
# still run. Cases that do not pass are run once more on their own, serially,
# to tell real failures from interference between parallel processes
# (cudaMemGetInfo, the legacy default stream's timing).
#
# usage: tests/runtime/run-conformance.sh BUILD_DIR OUT_DIR [JOBS]
# writes OUT_DIR/summary.txt (one "STATUS case" line per case and the
# totals), OUT_DIR/failures.log (the output of every case that did not pass)
# and OUT_DIR/report.txt (every REPORT line the cases printed).
set -u
BUILD=$(cd "$1" && pwd)
OUT=$2
JOBS=${3:-4}
mkdir -p "$OUT/cases"
OUT=$(cd "$OUT" && pwd)
export BUILD OUT

run_one() {
  local name=$1 log="$OUT/cases/$1.log" status rc
  timeout 120 "$BUILD/runtime_tests" --gtest_filter="$name" >"$log" 2>&1
  rc=$?
  if [ $rc -eq 0 ]; then
    if grep -q '^\[  SKIPPED \] 1 test' "$log"; then status=SKIP; else status=PASS; fi
  elif [ $rc -eq 124 ]; then status=TIMEOUT
  elif [ $rc -eq 1 ] && grep -q '^\[  FAILED  \] 1 test' "$log"; then status=FAIL
  else status="CRASH(rc=$rc)"
  fi
  echo "$status $name"
}
export -f run_one

"$BUILD/runtime_tests" --gtest_list_tests |
  awk '/^[^ ]/ { suite = $1 } /^  / { print suite $1 }' >"$OUT/cases.txt"

xargs -P "$JOBS" -L 1 bash -c 'run_one "$0"' <"$OUT/cases.txt" |
  sort -k2 >"$OUT/first-pass.txt"

: >"$OUT/summary.txt"
while read -r status name; do
  case $status in
  PASS | SKIP) echo "$status $name" >>"$OUT/summary.txt" ;;
  *)
    again=$(run_one "$name")
    if [ "${again%% *}" = PASS ]; then
      echo "FLAKY(first:$status) $name" >>"$OUT/summary.txt"
    else
      echo "$again" >>"$OUT/summary.txt"
    fi
    ;;
  esac
done <"$OUT/first-pass.txt"

grep -h '^REPORT ' "$OUT"/cases/*.log | sort -u >"$OUT/report.txt"
: >"$OUT/failures.log"
while read -r status name; do
  case $status in
  PASS | SKIP) ;;
  *) { echo "===== $status $name"; cat "$OUT/cases/$name.log"; } >>"$OUT/failures.log" ;;
  esac
done <"$OUT/summary.txt"
rm -rf "$OUT/cases" "$OUT/first-pass.txt" "$OUT/cases.txt"

S=$OUT/summary.txt
total=$(wc -l <"$S")
passed=$(grep -c '^PASS ' "$S")
skipped=$(grep -c '^SKIP ' "$S")
flaky=$(grep -c '^FLAKY' "$S")
failed=$((total - passed - skipped - flaky))
printf -- '----\ncases:   %s\npassed:  %s\nskipped: %s\nflaky:   %s\nfailed:  %s\n' \
  "$total" "$passed" "$skipped" "$flaky" "$failed" | tee -a "$S"
grep -v -E '^(PASS|SKIP|----|cases|passed|skipped|flaky|failed)' "$OUT/summary.txt" || true
