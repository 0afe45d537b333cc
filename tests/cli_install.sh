#!/bin/sh
# tests/cli_install.sh -- `make install PREFIX=...` puts the five headers,
# tilectl, tilehybrid.pc and the CMake package in place; outside projects
# build against the installed copy only, with CMake (find_package) and with
# pkg-config, and their programs match a sequential loop bitwise at 2
# processes; DESTDIR stages a tree that still works after it moved; make
# uninstall removes every file.  Everything happens under $B/install-test.
set -u
. tests/lib.sh
# every make below uses the same MPI as this test run (make check MPI=openmpi
# installs its own tilectl)
MK="make -s MPI=${MPI:-} MPICC=$MPICC MPIEXEC=$MPIEXEC"
src=$(pwd)
work=$src/$B/install-test
prefix=$work/prefix
version=$(sed -n 's/^#define TILEHYBRID_VERSION "\(.*\)"/\1/p' tilehybrid.h)
major=${version%%.*}
rm -rf "$work"
mkdir -p "$work"

# the files of an installation under $1
installed="include/tilehybrid/tiling.h include/tilehybrid/hybrid.h include/tilehybrid/topology.h
           include/tilehybrid/balance.h include/tilehybrid/scatterlb.h bin/tilectl
           lib/pkgconfig/tilehybrid.pc lib/cmake/tilehybrid/tilehybridConfig.cmake
           lib/cmake/tilehybrid/tilehybridConfigVersion.cmake"
missing_under() {
    m=""
    for f in $installed; do [ -e "$1/$f" ] || m="$m $f"; done
    echo "$m"
}

# check_run LABEL PROGRAM OPENMP: PROGRAM at 2 processes says "verify: ok"
# and "openmp: OPENMP" (yes or no).
check_run() {
    out=$(timeout 120 $MPIEXEC -n 2 "$2" 2>&1)
    rc=$?
    if [ $rc -eq 0 ] && echo "$out" | grep -q "^verify: ok$" &&
       echo "$out" | grep -q "^openmp: $3$"; then
        ok "$1"
    else notok "$1 (exit $rc)"; echo "$out" | tail -8 | diag; fi
}

# cmake_project DIR PREFIX [ARGS...]: copy tests/install-project to DIR (out
# of the source tree) and configure it against PREFIX with our MPI.
cmake_project() {
    dir=$1 pfx=$2
    shift 2
    rm -rf "$dir"
    mkdir -p "$dir"
    cp "$src/tests/install-project/CMakeLists.txt" "$src/tests/install-project/stencil.c" "$dir/"
    cmake -S "$dir" -B "$dir/build" -DCMAKE_PREFIX_PATH="$pfx" -DMPI_C_COMPILER="$mpicc_path" \
        -DCMAKE_C_FLAGS="-Wall -Wextra -pedantic -Werror" "$@" > "$dir/configure.log" 2>&1
}
set -- $MPICC
mpicc_path=$(command -v "$1")
have_cmake=0 have_pc=0
command -v cmake >/dev/null 2>&1 && have_cmake=1
command -v pkg-config >/dev/null 2>&1 && have_pc=1

# 1. make install PREFIX=... ----------------------------------------------------
if $MK install PREFIX="$prefix" > "$work/install.log" 2>&1; then
    missing=$(missing_under "$prefix")
    [ -z "$missing" ] && ok "make install PREFIX=...: headers, tilectl, tilehybrid.pc and the CMake package installed" \
        || notok "make install: missing$missing"
    pc="$prefix/lib/pkgconfig/tilehybrid.pc"
    if grep -q "^Cflags: -I\${includedir} -ffp-contract=off$" "$pc" && grep -q "^includedir=\${prefix}/include/tilehybrid" "$pc" &&
       grep -q "^prefix=$prefix$" "$pc" && grep -q "^Version: $version$" "$pc" && grep -q "^Libs: -lm$" "$pc"; then
        ok "tilehybrid.pc names the prefix, the include directory, -ffp-contract=off, the version and -lm"
    else notok "tilehybrid.pc content"; diag < "$pc"; fi

    # build a user program against the installed copy only (not the source tree)
    mkdir -p "$work/adi"
    cp demos/adi.c "$work/adi/adi.c"
    sed 's|#include "../hybrid.h"|#include <hybrid.h>|' demos/demo.h > "$work/adi/demo.h"
    sed 's|#include "../tilehybrid.h"|#include <tilehybrid.h>|' demos/agree.h > "$work/adi/agree.h"
    cp demos/edge.h "$work/adi/edge.h"
    sed 's|#include "../tiling.h"|#include <tiling.h>|' demos/checkpoint.h > "$work/adi/checkpoint.h"
    mkdir -p "$work/tools" && cp tools/options.h "$work/tools/options.h"   # (agree.h's option loop)
    if $MPICC -std=c99 -O2 -fopenmp -I"$prefix/include/tilehybrid" -o "$work/adi/adi" \
          "$work/adi/adi.c" -lm 2> "$work/adi/err" &&
       timeout 60 $MPIEXEC -n 2 "$work/adi/adi" --space 8x20x30 --verify | grep -q "verify: ok"; then
        ok "a program built against the installed headers runs and verifies"
    else notok "a program built against the installed headers"; head -5 "$work/adi/err" | diag; fi
    cmp -s "$prefix/bin/tilectl" "$TILECTL" && ok "the installed tilectl is $TILECTL" \
        || notok "the installed tilectl is $TILECTL"
    "$prefix/bin/tilectl" topo --procs 16 --space 64x256x100 --deps 1,1 | grep -q "^grid 2x8" \
        && ok "the installed tilectl runs" || notok "the installed tilectl runs"

    # 2. pkg-config: docs/INSTALL.md's command line -----------------------------
    if [ $have_pc -eq 1 ]; then
        export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
        got=$(pkg-config --modversion tilehybrid 2>&1)
        [ "$got" = "$version" ] && ok "pkg-config --modversion tilehybrid: $version" \
            || notok "pkg-config --modversion tilehybrid: '$got', want '$version'"
        d=$work/pc-project
        mkdir -p "$d"
        cp tests/install-project/stencil.c "$d/"
        if (cd "$d" && $MPICC -std=c99 -O2 -Wall -Wextra -pedantic -Werror -fopenmp \
                $(pkg-config --cflags tilehybrid) -o stencil stencil.c $(pkg-config --libs tilehybrid)) \
                > "$d/err" 2>&1; then
            check_run "pkg-config: mpicc \$(pkg-config --cflags tilehybrid) -fopenmp; every model matches the sequential loop" \
                "$d/stencil" yes
        else notok "pkg-config: the outside program compiles"; head -10 "$d/err" | diag; fi
        unset PKG_CONFIG_PATH
    else
        notok "pkg-config not found (tools/ensure-deps.sh installs it: apt-get install pkg-config)"
    fi

    # 3. CMake: find_package(tilehybrid) from an outside project -----------------
    if [ $have_cmake -eq 0 ]; then
        notok "cmake not found (tools/ensure-deps.sh installs it: apt-get install cmake)"
    elif [ -z "$mpicc_path" ]; then
        notok "cmake: '$MPICC' not found for -DMPI_C_COMPILER"
    else
        d=$work/cmake-project
        if cmake_project "$d" "$prefix" -DTILEHYBRID_WANT="$version"; then
            found=$(sed -n 's/^tilehybrid_DIR:[A-Z]*=//p' "$d/build/CMakeCache.txt")
            [ "$found" = "$prefix/lib/cmake/tilehybrid" ] \
                && ok "cmake: find_package(tilehybrid $version COMPONENTS OpenMP) finds the installed package" \
                || notok "cmake: find_package found '$found', not $prefix/lib/cmake/tilehybrid"
            if VERBOSE=1 cmake --build "$d/build" > "$d/build.log" 2>&1; then
                ok "cmake: the outside project builds with -Wall -Wextra -pedantic -Werror"
                n=$(grep -c -- "-ffp-contract=off .*stencil\.c" "$d/build.log")
                [ "$n" -eq 2 ] && ok "cmake: both programs compile with -ffp-contract=off (the package's interface option)" ||
                    { notok "cmake: -ffp-contract=off on $n of 2 compile lines"; grep "stencil\.c" "$d/build.log" | diag; }
                check_run "cmake: tilehybrid::openmp program, every model matches the sequential loop" \
                    "$d/build/stencil" yes
                check_run "cmake: tilehybrid::tilehybrid program (no OpenMP) matches the sequential loop" \
                    "$d/build/stencil_mpi" no
            else notok "cmake: the outside project builds"; tail -10 "$d/build.log" | diag; fi
        else notok "cmake: configure against the installed package"; tail -10 "$d/configure.log" | diag; fi
        # SameMajorVersion: the next major version is refused
        want=$((major + 1)).0
        if cmake_project "$work/cmake-want-$want" "$prefix" -DTILEHYBRID_WANT="$want"; then
            notok "cmake: find_package(tilehybrid $want) accepted version $version"
        elif grep -q "compatible with requested version \"$want\"" "$work/cmake-want-$want/configure.log"; then
            ok "cmake: find_package(tilehybrid $want) refuses version $version"
        else notok "cmake: find_package(tilehybrid $want) failed for another reason"
            tail -10 "$work/cmake-want-$want/configure.log" | diag; fi
    fi

    # 4. make uninstall ------------------------------------------------------------
    if $MK uninstall PREFIX="$prefix" > "$work/uninstall.log" 2>&1; then
        left=$(find "$prefix" -type f)
        [ -z "$left" ] && [ ! -e "$prefix/include/tilehybrid" ] && [ ! -e "$prefix/lib/cmake/tilehybrid" ] \
            && ok "make uninstall removes every installed file" \
            || { notok "make uninstall left files behind"; echo "$left" | diag; }
    else notok "make uninstall failed"; tail -5 "$work/uninstall.log" | diag; fi
else
    notok "make install failed"; tail -5 "$work/install.log" | diag
fi

# 5. DESTDIR: a staged tree, used where it lies (the CMake package is relocatable)
stage=$work/stage
dest=/opt/tilehybrid-destdir-test
if [ -e "$dest" ]; then
    notok "DESTDIR: $dest exists already; cannot tell whether install writes outside DESTDIR"
elif $MK install DESTDIR="$stage" PREFIX="$dest" > "$work/install-destdir.log" 2>&1; then
    missing=$(missing_under "$stage$dest")
    [ -z "$missing" ] && [ ! -e "$dest" ] && grep -q "^prefix=$dest$" "$stage$dest/lib/pkgconfig/tilehybrid.pc" \
        && ok "make install DESTDIR=... PREFIX=...: everything under DESTDIR, the .pc names PREFIX" \
        || notok "make install DESTDIR=...: missing$missing, or written outside DESTDIR, or wrong .pc prefix"
    if [ $have_cmake -eq 1 ] && [ -n "$mpicc_path" ]; then
        d=$work/cmake-staged
        if cmake_project "$d" "$stage$dest" && cmake --build "$d/build" --target stencil > "$d/build.log" 2>&1; then
            check_run "cmake: the package used from the staged tree (moved prefix) builds a program that matches" \
                "$d/build/stencil" yes
        else notok "cmake: the package used from the staged tree"; tail -10 "$d/configure.log" "$d/build.log" 2>/dev/null | diag; fi
    fi
    if $MK uninstall DESTDIR="$stage" PREFIX="$dest" > "$work/uninstall-destdir.log" 2>&1 &&
       [ -z "$(find "$stage" -type f)" ]; then
        ok "make uninstall DESTDIR=... PREFIX=... removes every staged file"
    else notok "make uninstall DESTDIR=..."; find "$stage" -type f | diag; fi
else
    notok "make install DESTDIR=... failed"; tail -5 "$work/install-destdir.log" | diag
fi

rm -rf "$prefix" "$stage"
done_testing
