#!/bin/sh
# Make sure an MPI compiler and launcher are available; install the MPI that
# MPI names (MPICH by default, Open MPI for MPI=openmpi) with the system
# package manager when we are allowed to, otherwise say exactly what to run.
# Also installs, when possible, what only `make check` uses: clang (the
# header hygiene tests; skipped without it), cmake and pkg-config (the
# tests/cli_install.sh builds of an outside project; they fail without them),
# jq when python3 is missing too (tests/cli_json.sh parses JSON with one of
# them), perl for prove (tests/run.sh runs every test through it and stops,
# saying what to install, without it).  `make check-tsan` sets TILEHYBRID_TSAN=1: clang's OpenMP runtime
# with Archer (libomp-dev) when clang cannot build -fopenmp
# -fsanitize=thread (the target skips without it).
# `make bench` and `make simulate` set TILEHYBRID_GNUPLOT=1: gnuplot (their
# figures) is required too.
# MPI=smpi (`make simulate`, .ci/run): SimGrid's smpicc and smpirun
# (libsimgrid-dev) in place of an MPI.
#   MPI=openmpi MPICC=mpicc.openmpi MPIEXEC=mpiexec.openmpi sh tools/ensure-deps.sh
set -u
case "${MPI:-}" in
    openmpi) pkgs="openmpi-bin libopenmpi-dev" bin="openmpi-bin" name="Open MPI"
             other="'sudo dnf install openmpi-devel', 'brew install open-mpi'"
             cc=${MPICC:-mpicc.openmpi} run=${MPIEXEC:-mpiexec.openmpi} ;;
    mpich)   pkgs="mpich libmpich-dev" bin="mpich" name="MPICH"
             other="'sudo dnf install mpich-devel', 'brew install mpich'"
             cc=${MPICC:-mpicc.mpich} run=${MPIEXEC:-mpiexec.mpich} ;;
    smpi)    pkgs="libsimgrid-dev" bin="libsimgrid-dev" name="SimGrid (SMPI)"
             other="'brew install simgrid', or SimGrid 3.x from your distribution"
             cc=${SMPICC:-smpicc} run=${SMPIRUN:-smpirun} ;;
    "")      pkgs="mpich libmpich-dev" bin="mpich" name="MPICH"
             other="'sudo dnf install mpich-devel', 'brew install mpich'"
             cc=${MPICC:-mpicc} run=${MPIEXEC:-mpiexec} ;;
    *)       echo "tilehybrid: MPI=$MPI: unknown MPI; use MPI=mpich, MPI=openmpi or MPI=smpi" >&2; exit 2 ;;
esac
need=""
command -v "$cc" >/dev/null 2>&1 || need=" $pkgs"
command -v "$run" >/dev/null 2>&1 || [ -n "$need" ] || need=" $bin"
mpi_missing=$need
plot=false
plotter="make bench"
[ "${MPI:-}" = smpi ] && plotter="make simulate"
if [ "${TILEHYBRID_GNUPLOT:-0}" = 1 ]; then
    plot=true
    command -v gnuplot >/dev/null 2>&1 || need="$need gnuplot-nox"
fi
# have_required: every required command is there
have_required() {
    command -v "$cc" >/dev/null 2>&1 && command -v "$run" >/dev/null 2>&1 &&
        { ! $plot || command -v gnuplot >/dev/null 2>&1; }
}
opt=""
command -v clang >/dev/null 2>&1 || opt=" clang libomp-dev"
command -v g++ >/dev/null 2>&1 || opt="$opt g++"
command -v cmake >/dev/null 2>&1 || opt="$opt cmake"
command -v pkg-config >/dev/null 2>&1 || opt="$opt pkg-config"
{ command -v python3 >/dev/null 2>&1 && python3 -c 'import json' 2>/dev/null; } ||
    command -v jq >/dev/null 2>&1 || opt="$opt jq"
command -v prove >/dev/null 2>&1 || opt="$opt perl"
if [ "${TILEHYBRID_TSAN:-0}" = 1 ] && command -v clang >/dev/null 2>&1 &&
   ! printf '#include <omp.h>\nint main(void) { return omp_get_max_threads() < 1; }\n' |
       clang -fopenmp -fsanitize=thread -x c - -o /dev/null 2>/dev/null; then
    opt="$opt libomp-dev"
fi
[ -z "$need" ] && [ -z "$opt" ] && exit 0

if command -v apt-get >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then sudo=""
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo="sudo"
    else sudo=none; fi
    if [ "$sudo" != none ]; then
        echo "tilehybrid: installing:$need $opt (apt-get)" >&2
        export DEBIAN_FRONTEND=noninteractive
        $sudo apt-get update -qq >/dev/null &&
        $sudo apt-get install -y -qq $need $opt >/dev/null 2>&1 ||
        { [ -n "$need" ] && $sudo apt-get install -y -qq $need >/dev/null; }
        have_required && exit 0
    fi
    if [ -z "$need" ]; then
        echo "tilehybrid: some tests need:$opt. Run:  sudo apt-get install -y$opt" >&2
        exit 0
    fi
    if [ -n "$mpi_missing" ]; then
        echo "tilehybrid: $name is missing ($cc, $run). Run:  sudo apt-get install -y$need" >&2
    else
        echo "tilehybrid: gnuplot is missing ($plotter draws its figures with it)." \
             "Run:  sudo apt-get install -y$need" >&2
    fi
    exit 1
fi
if $plot && ! command -v gnuplot >/dev/null 2>&1; then
    echo "tilehybrid: gnuplot is missing; install it (e.g. 'sudo dnf install gnuplot'," \
         "'brew install gnuplot')." >&2
    exit 1
fi
if [ -n "$mpi_missing" ]; then
    echo "tilehybrid: $cc/$run not found and apt-get is not available." >&2
    echo "  Install $name (e.g. $other)," >&2
    echo "  or point MPICC=... MPIEXEC=... at your MPI." >&2
    exit 1
fi
exit 0
