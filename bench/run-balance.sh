#!/bin/sh
# bench/run-balance.sh -- the funneled model under each balancing policy:
# per-thread compute and idle time of rank 0 (master = thread 0) and the
# factors the policy chose.  NP processes x 2 threads (default 2 x 2:
# oversubscribed on a 2-core machine, so read the idle columns, not the wall
# times, as the effect).
# The last two rows start from a deliberately bad split (the master gets half
# its share): fixed, and adaptive, which must find its way back.
#   sh bench/run-balance.sh [SPACE]        default 64x256x16384
set -eu
MPIEXEC=${MPIEXEC:-mpiexec}
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}   # oversubscribed: let idle threads sleep
SPACE=${1:-64x256x16384}
NP=${NP:-2}
# the first inner array of a JSON key, e.g. "compute": [[a, b], ...] -> "a b"
first_row() { sed -n "s/.*\"$1\": \[\[\([^]]*\)\].*/\1/p" | tr -d ','; }
list() { sed -n "s/.*\"$1\": \[\([^]]*\)\].*/\1/p" | tr -d ','; }
for kernel in adi de; do
    echo "== $kernel $SPACE, $NP processes x 2 threads, funneled model"
    printf "%-12s %8s  %-22s %-22s %s\n" policy seconds "master compute/idle" \
        "thread 1 compute/idle" "factor start->end, per process"
    for pol in none constant variable adaptive fixed-0.5 adaptive-0.5; do
        case $pol in
            *-0.5) args="--balance ${pol%-0.5} --bal 0.5" ;;
            *) args="--balance $pol" ;;
        esac
        out=$($MPIEXEC -n "$NP" ./demos/$kernel --space "$SPACE" --model funneled --threads 2 \
              $args --json)
        secs=$(echo "$out" | sed -n 's/.*"seconds": \([0-9.]*\).*/\1/p')
        comp=$(echo "$out" | first_row compute)
        idle=$(echo "$out" | first_row idle)
        start=$(echo "$out" | list bal_start)
        end=$(echo "$out" | list bal_end)
        echo "$pol $secs $comp $idle | $start | $end" | awk -F'|' '{
            split($1, a, " "); ns = split($2, s, " "); split($3, e, " ");
            f = ""; for (i = 1; i <= ns; i++) f = f sprintf("%.3f->%.3f ", s[i], e[i]);
            printf "%-12s %8.3f  %-22s %-22s %s\n", a[1], a[2],
                   sprintf("%.3f / %.3f", a[3], a[5]), sprintf("%.3f / %.3f", a[4], a[6]), f }'
    done
done
