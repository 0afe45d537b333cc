#!/bin/sh
# tests/cli_readme_io.sh -- the MPI-IO program of docs/REFERENCE.md (section
# "Getting data in and out": the output hook write_tile, one
# MPI_File_write_at per row of each finished tile) built from the page as it
# stands and run at 1 and 2 processes: it exits 0 and its file A.bin equals
# a plain sequential loop's array A[X][Y][Z] byte for byte (the same update,
# zero boundary, the sizes read from the program).  tests/run.sh only
# compiles the page's programs; this one runs it.
#   sh tests/cli_readme_io.sh
set -u
. tests/lib.sh
scratch cli_readme_io
W="-std=c99 -Wall -Wextra -pedantic -Werror -ffp-contract=off"

# the page's C blocks, cut as tests/run.sh cuts them; the program is the
# one with a main() that writes with MPI_File_write_at
awk -v dir="$T" '/^```c$/ { f = 1; n++; next } /^```$/ { f = 0 }
    f { print > (dir "/REFERENCE_" n ".c") }' docs/REFERENCE.md
prog=
for ex in "$T"/REFERENCE_*.c; do
    grep -q '^int main(' "$ex" && grep -q 'MPI_File_write_at(' "$ex" && prog=$ex
done
if [ -z "$prog" ]; then
    notok "docs/REFERENCE.md has a complete program writing with MPI_File_write_at"
    done_testing
fi
X=$(sed -n 's/.*cfg\.extent\[0\] = \([0-9]*\);.*/\1/p' "$prog" | head -n 1)
Y=$(sed -n 's/.*cfg\.extent\[1\] = \([0-9]*\);.*/\1/p' "$prog" | head -n 1)
Z=$(sed -n 's/.*cfg\.zlen = \([0-9]*\);.*/\1/p' "$prog" | head -n 1)
# the update the reference computes, as the page writes it
upd='1.0 + ((TILE_AT(double, it, -1, 0, 0) + TILE_AT(double, it, 0, -1, 0)) + TILE_AT(double, it, 0, 0, -1)) / 3.0'
if [ -z "$X" ] || [ -z "$Y" ] || [ -z "$Z" ] || ! tr -s ' \n' '  ' < "$prog" | grep -qF "$upd"; then
    notok "docs/REFERENCE.md's MPI-IO program ($(basename "$prog")): sizes X=$X Y=$Y Z=$Z and the update '$upd'"
    done_testing
fi

# the plain sequential loop, plane x by plane x (two planes of Y x Z), each
# compared with the file's bytes
cat > "$T/seq.c" <<'EOC'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    long X, Y, Z, x, y, z, bad = -1;
    double *prev, *cur, *got, *t;
    FILE *fp;
    if (argc != 5)
        return 2;
    X = atol(argv[1]), Y = atol(argv[2]), Z = atol(argv[3]);
    prev = calloc((size_t)(Y * Z), sizeof(double));
    cur = calloc((size_t)(Y * Z), sizeof(double));
    got = calloc((size_t)(Y * Z), sizeof(double));
    fp = fopen(argv[4], "rb");
    if (prev == NULL || cur == NULL || got == NULL || fp == NULL)
        return 2;
    for (x = 0, bad = 0; x < X; x++) {
        for (y = 0; y < Y; y++)
            for (z = 0; z < Z; z++) {
                double up = x > 0 ? prev[y * Z + z] : 0.0;
                double left = y > 0 ? cur[(y - 1) * Z + z] : 0.0;
                double below = z > 0 ? cur[y * Z + z - 1] : 0.0;
                cur[y * Z + z] = 1.0 + ((up + left) + below) / 3.0;
            }
        if (fread(got, sizeof(double), (size_t)(Y * Z), fp) != (size_t)(Y * Z)) {
            printf("short file at x = %ld\n", x);
            return 1;
        }
        for (y = 0; y < Y * Z; y++)
            bad += memcmp(&got[y], &cur[y], sizeof(double)) != 0;
        t = prev, prev = cur, cur = t;
    }
    if (fgetc(fp) != EOF) {
        printf("the file is longer than %ld x %ld x %ld doubles\n", X, Y, Z);
        return 1;
    }
    printf("%ld mismatching points of %ld\n", bad, X * Y * Z);
    return bad != 0;
}
EOC
if ! cc $W -O2 -o "$T/seq" "$T/seq.c" 2> "$T/err" ||
   ! $MPICC $W -O2 -I. -o "$T/readme_io" "$prog" -lm 2>> "$T/err"; then
    notok "docs/REFERENCE.md's MPI-IO program and the sequential reference build"
    diag < "$T/err"
    done_testing
fi
for np in 1 2; do
    rm -f "$T/A.bin"
    (cd "$T" && timeout 300 $MPIEXEC -n $np ./readme_io < /dev/null > out 2> err)
    rc=$?
    if [ $rc -ne 0 ]; then
        notok "docs/REFERENCE.md's MPI-IO program at $np process(es) exits 0 (got $rc)"
        strip_launcher < "$T/err" | diag
        continue
    fi
    if res=$("$T/seq" "$X" "$Y" "$Z" "$T/A.bin"); then
        ok "docs/REFERENCE.md's MPI-IO program at $np process(es): A.bin equals the sequential loop's ${X}x${Y}x${Z} array byte for byte ($res)"
    else
        notok "docs/REFERENCE.md's MPI-IO program at $np process(es): A.bin differs from the sequential loop's array: $res"
    fi
done
done_testing
