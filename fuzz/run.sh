#!/usr/bin/env bash
# Builds and runs the fuzz targets for a bounded time under ASan+UBSan, prints executions per second and totals, and
# fails if any target crashed, leaked, tripped a sanitizer or (AFL++) saved a crash.
#
#   fuzz/run.sh [-e libfuzzer|afl] [-t SECONDS] [-n RUNS] [-s SANITIZERS] [TARGET...]
#
# -n stops a libFuzzer target after RUNS executions (then -t only bounds it). Defaults: libfuzzer, 60 s, address,undefined, every target (the folders of fuzz/corpus). fuzz_tflite also starts
# from the real models in ../shared/models when they are there (copied into fuzz-out, never into the repository).
# Inputs found are kept in fuzz-out/<engine>/<target>/ (not in the repository); a crash leaves its input there as
# crash-* (libFuzzer) or in .../out/default/crashes (AFL++). Minimise it (libFuzzer: -minimize_crash=1) and commit
# it to fuzz/corpus/<target>/crash-<what> so every build replays it (suite fuzz-regress).
set -euo pipefail
cd "$(dirname "$0")/.."
engine=libfuzzer
seconds=60
sanitizers=address,undefined
runs=-1
while getopts "e:t:n:s:" opt; do
  case $opt in
    e) engine=$OPTARG ;;
    t) seconds=$OPTARG ;;
    n) runs=$OPTARG ;;
    s) sanitizers=$OPTARG ;;
    *) echo "usage: $0 [-e libfuzzer|afl] [-t SECONDS] [-n RUNS] [-s SANITIZERS] [TARGET...]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=($(ls fuzz/corpus))

common=(-Dfuzzing_engine="$engine" -Db_sanitize="$sanitizers" -Db_lundef=false -Dtests=disabled -Dcli=disabled
        --buildtype=debugoptimized)
suffix=${sanitizers//,/-}
# Seeds beyond the committed corpus: the shared real models for the .tflite reader.
extra_seeds() { # target, folder to fill
  if [ "$1" = tflite ] && [ -d ../shared/models ]; then
    mkdir -p "$2"
    cp ../shared/models/*.tflite "$2/"
  fi
}
max_len() { if [ "$1" = tflite ]; then echo 65536; else echo 4096; fi; }
# Per-input limits. The targets over a .tflite or a CSV (every input at most max_len bytes) get 2 s and 512 MB under
# ASan+UBSan: the goal is 1 s and 256 MB for any input under 1 MB in a release build, and each slow class of issue 32
# took seconds to minutes on inputs of a few hundred bytes to 60 KB (seeds fuzz/corpus/tflite/seed-hostile-*), so
# one that comes back fails as a timeout or an out-of-memory crash. The planner targets search by design: 10 s.
# (AFL++ runs with -t 1000, 1 s, for every target.)
timeout_s() { case $1 in tflite|csv) echo 2 ;; *) echo 10 ;; esac; }
rss_mb() { case $1 in tflite|csv) echo 512 ;; *) echo 2048 ;; esac; }
build() { # dir, then env assignments for the compiler
  local dir=$1
  shift
  if [ ! -f "$dir/build.ninja" ]; then
    env "$@" meson setup "$dir" "${common[@]}" >/dev/null
  fi
  ninja -C "$dir" >/dev/null
}

export ASAN_OPTIONS=abort_on_error=1:detect_leaks=1:symbolize=1
export UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1
status=0
case $engine in
libfuzzer)
  bdir=build-fuzz-libfuzzer-$suffix
  build "$bdir" CC=clang
  printf '%-14s %12s %14s %8s\n' target "exec/s" executions result
  for t in "${targets[@]}"; do
    out=fuzz-out/libfuzzer/$t
    mkdir -p "$out/corpus"
    extra_seeds "$t" "$out/seeds"
    seeds=("fuzz/corpus/$t")
    [ -d "$out/seeds" ] && seeds+=("$out/seeds")
    dict=()
    [ -f "fuzz/$t.dict" ] && dict=(-dict="fuzz/$t.dict")
    log=$out/log.txt
    if "$bdir"/fuzz/fuzz_"$t" "$out/corpus" "${seeds[@]}" "${dict[@]}" \
        -max_total_time="$seconds" -runs="$runs" -timeout="$(timeout_s "$t")" -rss_limit_mb="$(rss_mb "$t")" \
        -max_len="$(max_len "$t")" -print_final_stats=1 \
        -error_exitcode=1 -artifact_prefix="$out/" >"$log" 2>&1; then
      result=ok
    else
      result=CRASH
      status=1
    fi
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    printf '%-14s %12s %14s %8s\n' "$t" "${speed:-?}" "${runs:-?}" "$result"
    [ $result = ok ] || tail -40 "$log" >&2
  done
  ;;
afl)
  build build-fuzz-afl-$suffix CC=afl-clang-fast
  build build-fuzz-afl-cmplog-$suffix CC=afl-clang-fast AFL_LLVM_CMPLOG=1
  printf '%-14s %12s %14s %8s\n' target "exec/s" executions result
  for t in "${targets[@]}"; do
    out=fuzz-out/afl/$t
    rm -rf "$out"
    mkdir -p "$out/in"
    find "fuzz/corpus/$t" -type f -size +0 -exec cp {} "$out/in/" \;
    extra_seeds "$t" "$out/in"
    dict=()
    [ -f "fuzz/$t.dict" ] && dict=(-x "fuzz/$t.dict")
    ASAN_OPTIONS=abort_on_error=1:detect_leaks=0:symbolize=0 UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:symbolize=0 \
      AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1 \
      afl-fuzz -i "$out/in" -o "$out/out" -V "$seconds" -m none -t 1000 "${dict[@]}" \
      -c build-fuzz-afl-cmplog-$suffix/fuzz/fuzz_"$t" -- build-fuzz-afl-$suffix/fuzz/fuzz_"$t" >"$out/log.txt" 2>&1 || true
    stats=$out/out/default/fuzzer_stats
    if [ ! -f "$stats" ]; then
      echo "$t: afl-fuzz did not start; see $out/log.txt" >&2
      tail -20 "$out/log.txt" >&2
      status=1
      continue
    fi
    crashes=$(sed -n 's/^saved_crashes *: *//p' "$stats")
    runs=$(sed -n 's/^execs_done *: *//p' "$stats")
    speed=$(sed -n 's/^execs_per_sec *: *//p' "$stats")
    result=ok
    if [ "${crashes:-1}" != 0 ]; then
      result=CRASH
      status=1
    fi
    printf '%-14s %12s %14s %8s\n' "$t" "$speed" "$runs" "$result"
  done
  ;;
*)
  echo "unknown engine $engine" >&2
  exit 2
  ;;
esac
exit $status
