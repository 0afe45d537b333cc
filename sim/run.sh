#!/bin/sh
# sim/run.sh -- `make simulate` and `make simulate-quick`.
#   sh sim/run.sh [--quick]
# Runs the five experiments on simulated clusters (SimGrid SMPI, sim/README.md),
# writes CSV files into sim/results/ (RESULTS=DIR to change), draws the PNG
# figures with gnuplot and records SimGrid's version and the machine in
# sim-machine.txt.  Needs the SMPI build in build/smpi/ (make MPI=smpi
# sim-build; `make simulate` does it).  Simulated times repeat exactly with
# the same build and SimGrid; sim-scale.csv, sim-policy.csv and
# sim-topology-raw.csv keep the real time of each simulation.  Real time
# here, 2 cores shared with other jobs: the full set about 80 minutes
# (experiments 1-4 55, experiment 5 27), --quick 6.5 minutes (2 minutes of
# CPU time: about that on an idle machine).
#
#   1. topology.sh   communication-optimal vs balanced grid, the papers' cluster
#   2. scatter.sh    the seismic scatter on the paper's grid
#   3. hybrid.sh     balanced funneled vs pure MPI, 8 dual nodes
#   4. scale.sh      256 to 4,096 processes of a modern cluster
#   5. policy.sh     the volume and the time grid policies against simulation
set -eu
RUN=sim/run.sh RUN_HELP=3,19
. bench/run-lib.sh
export RESULTS=${RESULTS:-sim/results}
export SMPIRUN=${SMPIRUN:-smpirun}
export SIMBIN=${SIMBIN:-build/smpi}
for p in demos/adi demos/de sim/scatter_seismic sim/funneled; do
    [ -x "$SIMBIN/$p" ] || { echo "sim/run.sh: $SIMBIN/$p is missing: run make MPI=smpi sim-build (or make simulate)" >&2; exit 2; }
done
mkdir -p "$RESULTS"
start=$(date +%s)
{
    machine_lines ""
    echo "simgrid: $($SMPIRUN -version 2>/dev/null | head -n 1)"
} > "$RESULTS/sim-machine.txt"
echo "== machine"; cat "$RESULTS/sim-machine.txt"

for part in topology scatter hybrid scale policy; do
    echo "== $part"
    t0=$(date +%s)
    sh "sim/$part.sh"
    echo "   ($part: $(( $(date +%s) - t0 )) s)"
done
echo "== figures"
sh sim/plot.sh "$RESULTS"
echo "simulate: done in $(( $(date +%s) - start )) s; CSV and PNG files in $RESULTS/"
