#!/bin/sh
# Make sure an MPI compiler and launcher are available; install MPICH with the
# system package manager when we are allowed to, otherwise say exactly what
# to run.  Also installs, when possible, what only `make check` uses: clang
# (the header hygiene tests; skipped without it), cmake and pkg-config (the
# tests/cli_install.sh builds of an outside project; they fail without them).
set -u
need=""
command -v "${MPICC:-mpicc}" >/dev/null 2>&1 || need="$need mpich libmpich-dev"
command -v "${MPIEXEC:-mpiexec}" >/dev/null 2>&1 || case "$need" in *mpich*) ;; *) need="$need mpich" ;; esac
opt=""
command -v clang >/dev/null 2>&1 || opt=" clang libomp-dev"
command -v g++ >/dev/null 2>&1 || opt="$opt g++"
command -v cmake >/dev/null 2>&1 || opt="$opt cmake"
command -v pkg-config >/dev/null 2>&1 || opt="$opt pkg-config"
[ -z "$need" ] && [ -z "$opt" ] && exit 0

if command -v apt-get >/dev/null 2>&1; then
    pm="apt-get install -y"
    if [ "$(id -u)" = 0 ]; then sudo=""
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo="sudo"
    else sudo=none; fi
    if [ "$sudo" != none ]; then
        echo "tilehybrid: installing:$need $opt (apt-get)" >&2
        export DEBIAN_FRONTEND=noninteractive
        $sudo apt-get update -qq >/dev/null &&
        $sudo apt-get install -y -qq $need $opt >/dev/null 2>&1 ||
        { [ -n "$need" ] && $sudo apt-get install -y -qq $need >/dev/null; }
        command -v "${MPICC:-mpicc}" >/dev/null 2>&1 && exit 0
    fi
    if [ -z "$need" ]; then
        echo "tilehybrid: some tests need:$opt. Run:  sudo apt-get install -y$opt" >&2
        exit 0
    fi
    echo "tilehybrid: MPI is missing. Run:  sudo apt-get install -y$need" >&2
    exit 1
fi
if [ -n "$need" ]; then
    echo "tilehybrid: mpicc/mpiexec not found and apt-get is not available." >&2
    echo "  Install MPICH (e.g. 'sudo dnf install mpich-devel', 'brew install mpich')," >&2
    echo "  or point MPICC=... MPIEXEC=... at your MPI." >&2
    exit 1
fi
exit 0
