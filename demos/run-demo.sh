#!/bin/sh
# `make demo`: the main job.  The papers' 16-process grid table (tilectl),
# then the ADI kernel on this machine with the communication-optimal grid:
# once checked point by point against the plain sequential loop (--verify
# keeps every plane, so that run is memory-bound), then timed with the
# normal Z window on 2 processes and on 1 process x 2 threads.
set -eu
usage() {
    cat <<'USAGE'
usage: sh demos/run-demo.sh
Runs what `make demo` shows, from the repository root: the 16-process grid
table (demos/topo-table.sh), ADI 16x256x16384 checked with --verify, then
ADI 64x256x16384 timed on NP processes and on 1 process x 2 threads.
Environment: MPIEXEC (default mpiexec), NP (default 2), TILECTL.
Exit status: 0 ok, 2 bad arguments, else the status of the step that failed.
USAGE
}
case ${1-} in
    "") ;;
    -h|--help) usage; exit 0 ;;
    *) echo "demos/run-demo.sh: unexpected argument '$1' (see --help)" >&2; exit 2 ;;
esac
MPIEXEC=${MPIEXEC:-mpiexec}
NP=${NP:-2}
DEMODIR=${DEMODIR:-demos}   # make demo MPI=openmpi: build/openmpi/demos
. tools/mpi-env.sh          # Open MPI: allow root, oversubscribe, yield
echo "== Communication-optimal vs latency-optimal grids, 16 processes (tilectl topo)"
sh demos/topo-table.sh
echo
echo "== ADI 16x256x16384 on $NP processes, communication-optimal grid, checked ($DEMODIR/adi --verify)"
$MPIEXEC -n "$NP" "$DEMODIR/adi" --grid comm --verify
echo
echo "== ADI 64x256x16384 on $NP processes (pure MPI), then 1 process x 2 threads (funneled)"
$MPIEXEC -n "$NP" "$DEMODIR/adi" --space 64x256x16384 --grid comm
$MPIEXEC -n 1 "$DEMODIR/adi" --space 64x256x16384 --model funneled --threads 2
