#!/bin/sh
# tests/cli_install.sh -- `make install PREFIX=...` puts the five headers,
# tilectl and tilehybrid.pc in place, and a program builds against them.
set -u
fails=0
ok()    { echo "ok - $1"; }
notok() { echo "not ok - $1"; fails=$((fails + 1)); }
MPICC=${MPICC:-mpicc}
MPIEXEC=${MPIEXEC:-mpiexec}
B=${B:-build}              # tests/run.sh passes these on from the Makefile
TILECTL=${TILECTL:-./tilectl}
prefix=$(pwd)/$B/install-test
rm -rf "$prefix"
# the same MPI as this test run (make check MPI=openmpi installs its tilectl)
if make -s install PREFIX="$prefix" MPI="${MPI:-}" MPICC="$MPICC" MPIEXEC="$MPIEXEC" \
        > "$B/install.log" 2>&1; then
    missing=""
    for f in include/tilehybrid/tiling.h include/tilehybrid/hybrid.h include/tilehybrid/topology.h \
             include/tilehybrid/balance.h include/tilehybrid/scatterlb.h bin/tilectl \
             lib/pkgconfig/tilehybrid.pc; do
        [ -e "$prefix/$f" ] || missing="$missing $f"
    done
    [ -z "$missing" ] && ok "make install PREFIX=...: headers, tilectl and tilehybrid.pc installed" \
        || notok "make install: missing$missing"
    pc="$prefix/lib/pkgconfig/tilehybrid.pc"
    if grep -q "^Cflags: -I\${includedir}" "$pc" && grep -q "^includedir=\${prefix}/include/tilehybrid" "$pc" &&
       grep -q "^prefix=$prefix" "$pc" && grep -q "^Version: [0-9]" "$pc"; then
        ok "tilehybrid.pc names the prefix, the include directory and the version"
    else notok "tilehybrid.pc content"; sed 's/^/#   /' "$pc"; fi
    # build a user program against the installed copy only (not the source tree)
    u=$B/install-user
    mkdir -p "$u"
    cp demos/adi.c "$u/adi.c"
    sed 's|#include "../hybrid.h"|#include <hybrid.h>|' demos/demo.h > "$u/demo.h"
    if $MPICC -std=c99 -O2 -fopenmp -I"$prefix/include/tilehybrid" -o "$u/adi" "$u/adi.c" -lm \
          2> "$u/err" &&
       timeout 60 $MPIEXEC -n 2 "$u/adi" --space 8x20x30 --verify | grep -q "verify: ok"; then
        ok "a program built against the installed headers runs and verifies"
    else notok "a program built against the installed headers"; head -5 "$u/err" | sed 's/^/#   /'; fi
    cmp -s "$prefix/bin/tilectl" "$TILECTL" && ok "the installed tilectl is $TILECTL" \
        || notok "the installed tilectl is $TILECTL"
    "$prefix/bin/tilectl" topo --procs 16 --space 64x256x100 --deps 1,1 | grep -q "^grid 2x8" \
        && ok "the installed tilectl runs" || notok "the installed tilectl runs"
else
    notok "make install failed"; sed 's/^/#   /' "$B/install.log" | tail -5
fi
rm -rf "$prefix"
[ $fails -eq 0 ]
