#!/usr/bin/env bash
# bench/run.sh [--quick] [--ptx]: builds the benchmarks (build/bench, Release, with
# CUCPU_BUILD_BENCH=ON) and runs cucpu, native C++ (OpenMP) and PoCL side by
# side: every kernel's result is checked first, then timed (medians of >= 5
# repetitions after a warm-up run). Prints the table of times and ratios and
# writes bench/out/results.json. --quick uses smaller sizes (bench/common/
# Options.cpp) and finishes in a few minutes. --ptx also runs every kernel
# and the module loads from nvcc's PTX (bench/kernels/ptx-nvcc-13.0) in
# bench-cucpu, each beside the cucc image's, and prints a table of the two.
# See docs/performance.md.
#
# Environment: CUCPU_BENCH_THREADS (default: nproc) is the thread count of
# all three forms (CUCPU_WORKERS, OMP_NUM_THREADS, POCL_MAX_PTHREAD_COUNT);
# the compute-bound kernels also run with 1 thread for the scaling table.
# OMP_WAIT_POLICY defaults to passive: idle OpenMP threads sleep, like
# cucpu's and PoCL's workers (spinning ones stall on a shared machine).
set -euo pipefail

mode=full
cucpu_flags=()
for arg in "$@"; do
  case $arg in
    --quick) mode=quick ;;
    --full) mode=full ;;
    --ptx) cucpu_flags+=(--ptx) ;;
    -h | --help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "run.sh: unknown argument '$arg' (try --help)" >&2; exit 2 ;;
  esac
done

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$root/build/bench
out=$root/bench/out
threads=${CUCPU_BENCH_THREADS:-$(nproc)}
start=$SECONDS

mkdir -p "$out"
rm -f "$out"/cucpu-*.json "$out"/native-*.json "$out"/pocl-*.json "$out"/*.log
# The kernel benchmarks' JIT and kernel caches stay inside bench/out.
rm -rf "$out/cache"
mkdir -p "$out/cache/cuda" "$out/cache/pocl"

echo "== Building (build/bench, Release; log: bench/out/build.log)"
if ! { cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
         -DCUCPU_BUILD_BENCH=ON -DCUCPU_BUILD_TESTS=OFF -DCUCPU_BUILD_SAMPLES=OFF &&
       cmake --build "$build" --target bench -j2; } >"$out/build.log" 2>&1; then
  tail -n 40 "$out/build.log"
  echo "run.sh: the build failed (bench/out/build.log)" >&2
  exit 1
fi
echo "   built in $((SECONDS - start)) s"

load=$(cut -d' ' -f1 /proc/loadavg)
echo "== Running: mode $mode, $threads thread(s); load average before: $load"
if awk -v l="$load" 'BEGIN { exit !(l > 0.5) }'; then
  echo "   warning: the machine is busy (load $load): timings will be noisy"
fi

# run_form FORM THREADS [extra flags]: one executable, one JSON (named
# FORM-THREADS, with $tag appended when set).
run_form() {
  local form=$1 n=$2
  shift 2
  local json=$out/$form-$n${tag:-}.json log=$out/$form-$n${tag:-}.log t0=$SECONDS
  printf '   %-7s %s thread(s) %s... ' "$form" "$n" "$*"
  if ! env CUCPU_WORKERS="$n" OMP_NUM_THREADS="$n" POCL_MAX_PTHREAD_COUNT="$n" \
        OMP_WAIT_POLICY="${OMP_WAIT_POLICY:-passive}" \
        CUDA_CACHE_PATH="$out/cache/cuda" POCL_CACHE_DIR="$out/cache/pocl" \
        "$build/bench/bench-$form" --mode="$mode" "$@" \
        --benchmark_out="$json" --benchmark_out_format=json >"$log" 2>&1; then
    echo "FAILED"
    grep -E -A3 'FAILED|FATAL' "$log" || tail -n 30 "$log"
    echo "run.sh: bench-$form failed (bench/out/$form-$n.log)" >&2
    exit 1
  fi
  echo "$((SECONDS - t0)) s"
}

# Never two forms in one process: our libcuda and PoCL each bring an LLVM.
run_form cucpu "$threads" ${cucpu_flags[@]+"${cucpu_flags[@]}"}
for form in native pocl; do
  run_form "$form" "$threads"
done
# Copies are short and follow the host's memory bandwidth, which drifts
# from minute to minute on a shared machine: three more rounds of the three
# forms, one after another, and each copy's figure is the median over the
# four rounds (merge.py), so that a slow spell does not fall on one form.
for round in 2 3 4; do
  for form in cucpu native pocl; do
    tag=-copies$round run_form "$form" "$threads" --benchmark_filter='^copy[.]'
  done
done
if [ "$threads" -gt 1 ]; then
  for form in cucpu native pocl; do
    run_form "$form" 1 --scaling
  done
fi

echo
python3 "$root/bench/merge.py" --out "$out/results.json" \
  --note "load average before the run: $load" "$out"/cucpu-*.json "$out"/native-*.json "$out"/pocl-*.json
echo "run.sh: done in $((SECONDS - start)) s"
