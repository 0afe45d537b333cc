#!/bin/sh
# tests/cli_at_count.sh -- a TILE_AT with an offset count no plan has (one,
# or 10 to 16) does not compile, and the compiler's
# message states the rule; the right count compiles warning-free.  (The
# count the plan has, N + 1, is checked at run time: tests/mpi_stencil.c.)
set -u
. tests/lib.sh
scratch cli_at_count

# at OFFSETS WANT: compile a body whose TILE_AT has OFFSETS; WANT empty:
# it must compile with -Werror; else it must fail naming WANT
at() {
    cat > "$T/at.c" <<EOC
#include "hybrid.h"
int main(void)
{
    tile_plan p;
    HYBRID_RUN(&p, it, { TILE_AT(double, it, $1) = 1.0; });
    return 0;
}
EOC
    $MPICC -std=c99 -Wall -Wextra -pedantic -Werror -I. -fsyntax-only "$T/at.c" > "$T/out" 2>&1
    rc=$?
    if [ -z "$2" ]; then
        [ $rc -eq 0 ] && ok "TILE_AT with offsets ($1) compiles warning-free" ||
            notok "TILE_AT with offsets ($1): $(head -c 400 "$T/out")"
    elif [ $rc -ne 0 ] && grep -q "$2" "$T/out"; then
        ok "TILE_AT with offsets ($1) does not compile: $(grep -m1 "$2" "$T/out" | sed 's/.*error: //')"
    else
        notok "TILE_AT with offsets ($1): exit $rc, want an error naming $2: $(head -c 400 "$T/out")"
    fi
}
at "0, -1, 0" ""
at "-1" TILE_AT_needs_one_offset_per_dimension_then_one_for_Z
at "0, 0, 0, 0, 0, 0, 0, 0, 0, 0" TILE_AT_takes_at_most_TILE_MAX_DIMS_plus_1_offsets
at "0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0" TILE_AT_takes_at_most_TILE_MAX_DIMS_plus_1_offsets
at "0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1" TILE_AT_takes_at_most_TILE_MAX_DIMS_plus_1_offsets
done_testing
