#!/bin/sh
# tests/cli_fuzz.sh -- the fuzz target (tests/fuzz/fuzz_cli.c) replays its
# seed corpus once, under AddressSanitizer and UndefinedBehaviorSanitizer
# ($B/fuzz/replay, built by make check): tilectl topo, balance and scatter
# (and the CSV reader), the number parsers and the demos' parser on every
# seed, with the target's own checks (a command that fails prints nothing on
# stdout, --json prints one line; accepted numbers read back).  make fuzz
# runs it for a minute under libFuzzer; without clang it says so and exits 0.
#   sh tests/cli_fuzz.sh
set -u
. tests/lib.sh
R=$B/fuzz/replay
n=$(ls tests/fuzz/corpus | wc -l)
if [ ! -x "$R" ]; then
    notok "$R is not built (make check builds it)"
else
    ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 run_timeout 300 "$R" tests/fuzz/corpus/*
    if [ $rc -eq 0 ] && [ "$out" = "$n inputs replayed" ]; then
        ok "the fuzz corpus ($n inputs) replays clean under ASan/UBSan, every check holding"
    else
        notok "fuzz replay: exit $rc, '$out'"
        printf '%s\n' "$err" | tail -n 20 | diag
    fi
    # an input it cannot read is an error, not a silent pass
    run_timeout 60 "$R" /nonexistent/input
    [ $rc -eq 2 ] && ok "the replay fails on an input it cannot read (exit 2)" ||
        notok "the replay on a missing input: exit $rc"
fi
run_timeout 60 env FUZZ_CC=/nonexistent/clang sh tests/fuzz/run.sh
if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q "is not installed.*libFuzzer.*skipped"; then
    ok "make fuzz without clang: says so, exit 0"
else
    notok "make fuzz without clang: exit $rc, '$out' '$err'"
fi
done_testing
