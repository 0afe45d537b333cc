#!/bin/sh
# bench/run-topology.sh -- topo_grid() solve times (run by `make bench`).
#   sh bench/run-topology.sh           standard sweep, a few seconds
#   sh bench/run-topology.sh --full    adds every P in 1..2^20 for N = 4
set -eu
B=${B:-build}
if [ ! -x "$B/bench/bench_topology" ]; then
    echo "bench/run-topology.sh: $B/bench/bench_topology missing (make bench)" >&2
    exit 1
fi
"$B/bench/bench_topology" "$@"
