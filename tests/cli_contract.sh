#!/bin/sh
# tests/cli_contract.sh -- floating-point contraction is said, never
# silent: tile_fp_contracts() probes, in the file that includes the header
# and with that file's flags, whether a * b + c becomes a fused multiply-add;
# tile_plan_create() (a macro over the function) then warns once on rank 0,
# naming -ffp-contract=off, or refuses under TILE_STRICT (TILE_ERR_ARG on
# every rank).  A file built with -ffp-contract=off is silent.  The
# contracting builds need an FMA unit (/proc/cpuinfo's fma flag) and a
# compiler that takes -mfma; without them they are skipped, saying why.
set -u
. tests/lib.sh
scratch cli_contract

cat > "$T/fp.c" <<'EOC'
#include "tiling.h"

#include <stdio.h>

static void edge(void *out, const int64_t *c, void *ctx)
{
    (void)c;
    (void)ctx;
    *(double *)out = 0.5;
}

int main(int argc, char **argv)
{
    tile_config cfg;
    tile_plan p;
    int rank, rc;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    tile_config_init(&cfg, 1);
    cfg.extent[0] = 8;
    cfg.zlen = 6;
    cfg.boundary = edge;
    rc = tile_plan_create(&p, MPI_COMM_WORLD, &cfg);
    printf("rank %d: contracts %d, status %s%s%s\n", rank, tile_fp_contracts(),
           rc == TILE_OK ? "0" : rc == TILE_ERR_ARG ? "TILE_ERR_ARG" : "other",
           rc ? ": " : "", rc ? p.errmsg : "");
    tile_plan_destroy(&p);
    MPI_Finalize();
    return 0;
}
EOC

# build NAME FLAGS...: $T/NAME from fp.c
build() {
    b_name=$1
    shift
    $MPICC -Wall -Wextra -Werror -O2 "$@" -I. -o "$T/$b_name" "$T/fp.c" > "$T/cc.out" 2>&1
}

WARN="rank 0: warning: this file contracts a \* b + c into fused multiply-adds"

if build off -std=c99 -pedantic -ffp-contract=off; then
    run_job 2 "$T/off"
    if [ $rc -eq 0 ] && [ "$(grep -c 'contracts 0, status 0' "$T/out")" = 2 ] &&
       ! grep -q "contracts" "$T/err"; then
        ok "-ffp-contract=off: tile_fp_contracts() is 0 on both ranks, the plan says nothing"
    else
        notok "-ffp-contract=off: exit $rc: $(cat "$T/out" "$T/err" | head -c 600)"
    fi
else
    notok "fp.c builds with -std=c99 -ffp-contract=off: $(head -c 400 "$T/cc.out")"
fi

if ! grep -qw fma /proc/cpuinfo 2> /dev/null; then
    skip "a contracting build warns on rank 0" "this machine has no FMA unit"
    skip "a contracting build under TILE_STRICT is refused" "this machine has no FMA unit"
elif ! build fast -std=gnu99 -mfma -ffp-contract=fast; then
    skip "a contracting build warns on rank 0" "$MPICC does not take -mfma"
    skip "a contracting build under TILE_STRICT is refused" "$MPICC does not take -mfma"
else
    run_job 2 "$T/fast"
    if [ $rc -eq 0 ] && [ "$(grep -c 'contracts 1, status 0' "$T/out")" = 2 ] &&
       [ "$(grep -c "$WARN" "$T/err")" = 1 ] && grep -q -e "-ffp-contract=off" "$T/err" &&
       grep -q "TILE_STRICT" "$T/err"; then
        ok "-std=gnu99 -mfma -ffp-contract=fast: tile_fp_contracts() is 1, one warning (rank 0) naming -ffp-contract=off and TILE_STRICT, the plan is made"
    else
        notok "-ffp-contract=fast: exit $rc: $(cat "$T/out" "$T/err" | head -c 800)"
    fi
    if build strict -std=gnu99 -mfma -ffp-contract=fast -DTILE_STRICT; then
        run_job 2 "$T/strict"
        if [ $rc -eq 0 ] && [ "$(grep -c 'contracts 1, status TILE_ERR_ARG: .*refused under TILE_STRICT' "$T/out")" = 2 ]; then
            ok "the same under TILE_STRICT: TILE_ERR_ARG on both ranks, the message says why"
        else
            notok "TILE_STRICT: exit $rc: $(cat "$T/out" "$T/err" | head -c 800)"
        fi
    else
        notok "fp.c builds with -DTILE_STRICT: $(head -c 400 "$T/cc.out")"
    fi
fi
done_testing
