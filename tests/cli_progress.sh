#!/bin/sh
# tests/cli_progress.sh -- the demos' progress line (demos/demo.h): rank 0
# prints "adi: NN% of tiles" to stderr when stderr is a terminal (here: under
# `script`, which gives the program a pseudo-terminal), or with --progress;
# nothing without a terminal, with --no-progress or with --json.
#   sh tests/cli_progress.sh ./tilectl
set -u
. tests/lib.sh
D=$DEMODIR
scratch cli_progress

# 300 tiles: enough for several percentages, short enough for a test
RUN="--space 16x64x3000 --tile-height 10"

# lines FILE: the progress lines of FILE, one per update
lines() { tr '\r' '\n' < "$1" | grep '% of tiles'; }

# 1. no terminal: nothing on stderr, alone or under mpiexec
$D/adi $RUN > "$T/out" 2> "$T/err"
rc=$?
[ $rc -eq 0 ] && [ ! -s "$T/err" ] && grep -q '^checksum' "$T/out" &&
    ok "no terminal: adi prints nothing on stderr" ||
    notok "no terminal: adi (exit $rc) printed on stderr: $(head -c 200 "$T/err")"
timeout 120 $MPIEXEC -n 2 $D/de $RUN --model funneled --threads 2 > "$T/out" 2> "$T/err"
rc=$?
[ $rc -eq 0 ] && [ ! -s "$T/err" ] &&
    ok "no terminal: mpiexec -n 2 de prints nothing on stderr" ||
    notok "no terminal: mpiexec -n 2 de (exit $rc) printed on stderr: $(head -c 200 "$T/err")"

# 2. --progress forces it (stderr is a pipe under mpiexec): in every model,
# rank 0 alone (one "0%" line), percentages that never decrease, and the
# line erased at the end (the last update is blanks only)
for cfg in "2 mpi 1" "2 fine 2" "2 funneled 2" "3 multiple 2"; do
    set -- $cfg
    timeout 120 $MPIEXEC -n $1 $D/adi $RUN --model $2 --threads $3 --progress \
        > "$T/out" 2> "$T/err"
    rc=$?
    n=$(lines "$T/err" | wc -l)
    zeros=$(lines "$T/err" | grep -c ' 0% of tiles')
    sorted=$(lines "$T/err" | sed 's/[^0-9]*\([0-9]*\)%.*/\1/' | sort -n -c 2>&1 && echo yes)
    last=$(tr '\r' '\n' < "$T/err" | tail -n 1)
    other=$(lines "$T/err" | grep -cv '^adi: *[0-9]*% of tiles$')
    if [ $rc -eq 0 ] && [ "$n" -ge 1 ] && [ "$zeros" -eq 1 ] && [ "$sorted" = yes ] &&
       [ "$other" -eq 0 ] && [ -n "$last" ] && [ -z "$(echo "$last" | tr -d ' ')" ]; then
        ok "--progress, $1 processes, model $2: $n updates from rank 0 alone, increasing, erased at the end"
    else
        notok "--progress, $1 processes, model $2 (exit $rc): $n updates, $zeros at 0%, sorted '$sorted': $(tr '\r' '~' < "$T/err" | head -c 300)"
    fi
done

# 3. on a terminal
if ! command -v script > /dev/null 2>&1 || ! script -qec true /dev/null < /dev/null > /dev/null 2>&1; then
    skip "progress on a terminal" "util-linux script(1) is not available"
else
    tty() { script -qec "$1" /dev/null < /dev/null > "$T/tty" 2>&1; }
    for cmd in "$D/adi $RUN" "$D/de $RUN --model funneled --threads 2"; do
        tty "$cmd"
        if lines "$T/tty" | grep -q '^[a-z]*: *[0-9]*% of tiles$' && grep -q checksum "$T/tty"; then
            ok "terminal: $cmd shows the percentage of tiles ($(lines "$T/tty" | wc -l) updates)"
        else notok "terminal: $cmd shows no percentage: $(tr '\r' '~' < "$T/tty" | head -c 300)"; fi
    done
    # under mpiexec: the launcher's stderr is the terminal (Linux: the demo
    # follows the launcher processes up to it)
    if [ "$(uname -s)" = Linux ]; then
        tty "$MPIEXEC -n 2 $D/adi $RUN"
        if [ "$(lines "$T/tty" | grep -c ' 0% of tiles')" -eq 1 ] && grep -q checksum "$T/tty"; then
            ok "terminal: mpiexec -n 2 adi shows rank 0's percentage ($(lines "$T/tty" | wc -l) updates)"
        else notok "terminal: mpiexec -n 2 adi: $(tr '\r' '~' < "$T/tty" | head -c 300)"; fi
        tty "$MPIEXEC -n 2 $D/adi $RUN 2> $T/err2"
        if [ ! -s "$T/err2" ] && grep -q checksum "$T/tty"; then
            ok "terminal, but mpiexec's stderr a file: no progress"
        else notok "mpiexec 2> file: $(tr '\r' '~' < "$T/err2" | head -c 300)"; fi
    fi
    tty "$D/adi $RUN --no-progress"
    if ! grep -q '% of tiles' "$T/tty" && grep -q checksum "$T/tty"; then
        ok "terminal: --no-progress shows nothing"
    else notok "terminal: --no-progress: $(tr '\r' '~' < "$T/tty" | head -c 300)"; fi
    tty "$D/adi $RUN --json"
    if ! grep -q '% of tiles' "$T/tty" && grep -q '"checksum"' "$T/tty"; then
        ok "terminal: --json shows no progress"
    else notok "terminal: --json: $(tr '\r' '~' < "$T/tty" | head -c 300)"; fi
fi

# 4. --progress and --json contradict each other
$D/adi --progress --json > "$T/out" 2> "$T/err"
rc=$?
[ $rc -eq 2 ] && grep -q -- '--progress' "$T/err" && [ ! -s "$T/out" ] &&
    ok "--progress --json: exit 2, the message names --progress" ||
    notok "--progress --json: exit $rc: $(cat "$T/err")"

done_testing
