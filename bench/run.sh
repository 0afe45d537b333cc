#!/bin/sh
# bench/run.sh -- `make bench` and `make bench-quick`.
#   sh bench/run.sh [--quick]
# Runs every measurement (progress line per case), writes CSV files into
# bench/results/ (RESULTS=DIR to change), draws the PNG figures with
# gnuplot, and records the machine in machine.txt.  The full set takes
# about 15 minutes on 2 cores (speed.sh 6 of them), --quick about a
# minute.  docs/RESULTS.md
# explains each figure.
#
#   1. topology.sh   communication-optimal vs balanced process grid
#   2. models.sh     pure MPI, fine, funneled (each balancing policy),
#                    multiple; tile-height sweep
#      height.sh     the tile height the plan chooses against a sweep
#   3. balance.sh    per-thread compute / communication / idle time
#   4. scatter.sh    uniform vs balanced MPI_Scatterv
#   5. overhead.sh   one process against the plain loop
#   6. kernels.sh    seidel and Smith-Waterman against their plain loops
#   7. speed.sh      one process in G points/s against the machine's limit,
#                    -O2 and -march=native; 2 cores against 1 process
#      memory.sh     the largest resident set at Z and at 10 Z
#   8. anchors.sh    PRK's p2p and NPB's LU beside demos/p2p and demos/lu,
#                    built from PRK_DIR and NPB_DIR (skipped, saying where
#                    to get them, when those are not set)
#   and, full set only, the solvers' own speed (topology.h, scatterlb.h).
# PARTS="height speed memory" runs only those parts (and the figures).
set -eu
RUN=bench/run.sh RUN_HELP=3,25
. bench/run-lib.sh
export RESULTS=${RESULTS:-bench/results}
# bench/lib.sh's default launcher: MPICH's own where it is installed
if [ -z "${MPIEXEC:-}" ]; then
    if command -v mpiexec.mpich >/dev/null 2>&1; then MPIEXEC=mpiexec.mpich; else MPIEXEC=mpiexec; fi
fi
export MPIEXEC
[ "$QUICK" = 1 ] && export RUNS=${RUNS:-1}
parts=${PARTS:-topology models height balance scatter overhead kernels speed memory anchors}
for part in $parts; do
    [ -f "bench/$part.sh" ] || { echo "$RUN: PARTS: no part '$part' (bench/$part.sh)" >&2; exit 2; }
done
mkdir -p "$RESULTS"
rm -f "$RESULTS"/.ref-*     # the plain loop's checksums, kept during one run
start=$(date +%s)

{
    machine_lines "${RUNS:+, $RUNS runs per case}${PARTS:+, parts: $PARTS}"
    echo "memory: $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo 2>/dev/null)"
    echo "compiler: $(${MPICC:-mpicc} --version 2>/dev/null | head -n 1)"
    v=$($MPIEXEC --version 2>/dev/null)
    case $v in
        *HYDRA*) echo "mpi: MPICH $(echo "$v" | sed -n 's/^ *Version: *//p' | head -n 1)" ;;
        *) echo "mpi: $(echo "$v" | head -n 1)" ;;
    esac
    echo "cflags: ${CFLAGS:--O2}"
    echo "native cflags: ${NATIVE_CFLAGS:--O2 -march=native} (speed.sh's second build)"
} > "$RESULTS/machine.txt"
echo "== machine"; cat "$RESULTS/machine.txt"

for part in $parts; do
    echo "== $part"
    sh "bench/$part.sh"
done
if [ "$QUICK" = 0 ] && [ -z "${PARTS:-}" ]; then
    echo "== solver speed (topology.h)"
    sh bench/run-topology.sh | tee "$RESULTS/solver-topology.txt"
    echo "== solver speed (scatterlb.h)"
    sh bench/run-scatterlb.sh | tee "$RESULTS/solver-scatterlb.txt"
fi
echo "== figures"
sh bench/plot.sh "$RESULTS"
rm -f "$RESULTS"/.ref-*
echo "bench: done in $(( $(date +%s) - start )) s; CSV and PNG files in $RESULTS/"
