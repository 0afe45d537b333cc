#!/bin/sh
# `make demo`: the main job.  The papers' 16-process grid table (tilectl),
# then the ADI kernel on this machine with the communication-optimal grid:
# once checked point by point against the plain sequential loop (--verify
# keeps every plane, so that run is memory-bound), then timed with the
# normal Z window on 2 processes and on 1 process x 2 threads.
set -eu
MPIEXEC=${MPIEXEC:-mpiexec}
NP=${NP:-2}
DEMODIR=${DEMODIR:-demos}   # make demo MPI=openmpi: build/openmpi/demos
echo "== Communication-optimal vs latency-optimal grids, 16 processes (tilectl topo)"
sh demos/topo-table.sh
echo
echo "== ADI 16x256x16384 on $NP processes, communication-optimal grid, checked ($DEMODIR/adi --verify)"
$MPIEXEC -n "$NP" "$DEMODIR/adi" --grid comm --verify
echo
echo "== ADI 64x256x16384 on $NP processes (pure MPI), then 1 process x 2 threads (funneled)"
$MPIEXEC -n "$NP" "$DEMODIR/adi" --space 64x256x16384 --grid comm
$MPIEXEC -n 1 "$DEMODIR/adi" --space 64x256x16384 --model funneled --threads 2
