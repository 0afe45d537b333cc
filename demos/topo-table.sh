#!/bin/sh
# demos/topo-table.sh -- the 16-process table of the topology paper (Sec. 6.1):
# for each iteration space X1 x 256 x 16384 with d = (1,1), the
# communication-optimal grid (tilectl topo) beside the latency-optimal one of
# MPI_Dims_create, with the volume per inner process (elements, V*Z).
# Run from the repository root:  sh demos/topo-table.sh
set -eu
usage() {
    cat <<'USAGE'
usage: sh demos/topo-table.sh
Prints the 16-process grid table of the topology paper: for X1 x 256 x 16384,
X1 = 16 .. 256, the communication-optimal and the latency-optimal grid with
their volumes.  Environment: TILECTL (default ./tilectl).
Exit status: 0 ok, 2 bad arguments, 1 tilectl not found, else the status of
the tilectl run that failed.
USAGE
}
case ${1-} in
    "") ;;
    -h|--help) usage; exit 0 ;;
    *) echo "demos/topo-table.sh: unexpected argument '$1' (see --help)" >&2; exit 2 ;;
esac
CTL=${TILECTL:-./tilectl}
if ! command -v "$CTL" > /dev/null 2>&1; then
    echo "demos/topo-table.sh: $CTL not found (run make, or set TILECTL)" >&2
    exit 1
fi
echo "16 processes, space X1 x 256 x 16384, d = (1,1)"
printf '%-16s %-10s %10s   %-10s %10s   %s\n' space "comm grid" volume \
    "latency" volume saving
for x in 16 32 64 128 256; do
    # no pipe: a failing tilectl stops the script (set -e)
    out=$("$CTL" topo --procs 16 --space "${x}x256x16384" --deps 1,1)
    echo "$out" | awk -v s="${x}x256x16384" '
        $1 == "grid"           { g = $2 }
        $1 == "volume"         { v = $2 }
        $1 == "latency_grid"   { lg = $2 }
        $1 == "latency_volume" { lv = $2 }
        $1 == "saving"         { sv = $2 }
        END { printf "%-16s %-10s %10s   %-10s %10s   %s\n", s, g, v, lg, lv, sv }'
done
echo "(paper: 1x16 1x16 2x8 2x8, and 4x4 for 256x256; 128x256 ties 2x8 with 4x4)"
