#!/bin/sh
# `make demo`: the main job.  The papers' 16-process grid table (tilectl),
# then the ADI kernel on this machine with the communication-optimal grid,
# checked point by point against the plain sequential loop.
set -eu
MPIEXEC=${MPIEXEC:-mpiexec}
NP=${NP:-2}
echo "== Communication-optimal vs latency-optimal grids, 16 processes (tilectl topo)"
sh demos/topo-table.sh
echo
echo "== ADI 16x256x16384 on $NP processes, communication-optimal grid (mpiexec -n $NP ./demos/adi --verify)"
$MPIEXEC -n "$NP" ./demos/adi --grid comm --verify
echo
echo "== The same with 1 process x 2 threads, coarse-grain funneled model"
$MPIEXEC -n 1 ./demos/adi --model funneled --threads 2 --verify
