#!/bin/sh
# tests/fuzz/run.sh -- `make fuzz`: the fuzz target tests/fuzz/fuzz_cli.c
# under libFuzzer for FUZZ_SECONDS seconds (default 60), seeded with
# tests/fuzz/corpus/; the inputs it finds go to $B/fuzz/corpus (not into the
# repository: copy one there by hand when it is worth keeping), a crash to
# $B/fuzz/crash-*.  libFuzzer comes with clang; without clang the script
# says so and exits 0.  Run from the top directory:
#   MPICC=mpicc.mpich B=build FUZZ_SECONDS=60 sh tests/fuzz/run.sh
set -u
MPICC=${MPICC:-mpicc}
B=${B:-build}
SECS=${FUZZ_SECONDS:-60}
CLANG=${FUZZ_CC:-clang}
if ! command -v "$CLANG" > /dev/null 2>&1; then
    echo "make fuzz: $CLANG is not installed: the fuzz target needs libFuzzer (clang -fsanitize=fuzzer); skipped"
    exit 0
fi
mkdir -p "$B/fuzz/corpus"
SRC="tests/fuzz/fuzz_cli.c $(ls tools/tilectl/*.c | grep -v '/main\.c$')"
# the MPI wrapper with clang underneath (MPICH_CC: MPICH, OMPI_CC: Open MPI)
# shellcheck disable=SC2086
if ! MPICH_CC=$CLANG OMPI_CC=$CLANG $MPICC -std=c99 -g -O1 -fsanitize=fuzzer,address,undefined,float-cast-overflow \
        -Wno-unused-function -I. -o "$B/fuzz/fuzz_cli" $SRC -lm; then
    echo "make fuzz: building the fuzz target with $CLANG -fsanitize=fuzzer failed" >&2
    exit 1
fi
echo "make fuzz: $B/fuzz/fuzz_cli for $SECS s (seeds: tests/fuzz/corpus, new inputs: $B/fuzz/corpus)"
exec "$B/fuzz/fuzz_cli" -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$B/fuzz/" "$B/fuzz/corpus" tests/fuzz/corpus
