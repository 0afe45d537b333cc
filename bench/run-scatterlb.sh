#!/bin/sh
# bench/run-scatterlb.sh -- timings of scatterlb.h's distributions (`make bench`).
#   sh bench/run-scatterlb.sh [--quick]
# Medians of repeated runs; see bench/bench_scatterlb.c for what is timed.
set -eu
B=${B:-build}
[ -x "$B/bench/bench_scatterlb" ] || make --no-print-directory "$B/bench/bench_scatterlb"
"$B/bench/bench_scatterlb" "$@"
