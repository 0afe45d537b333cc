/* tilectl/stencil.c -- the nest a plan runs for a stencil, for topo and
 * plan: tiling.h's tile_config_deps() derives the widths d'_i, d'_Z, the
 * extended faces and, for a stencil that reads a later point along some
 * dimension (a Gauss-Seidel or Jacobi sweep in time), the skew and the
 * extents of the skewed space the plan tiles.  topology.h's nest is then
 * that space with those widths, as a plan builds it (tiling.h's
 * tile__nest), so both commands price what the plan really runs. */
#include "cli.h"

#include "tiling.h"

/* cli.h's bound is topology.h's */
typedef char cli__extents_bound[CLI_MAX_EXTENTS == TOPO_MAX_DIMS + 1 ? 1 : -1];

/* --loop-order's entries (1-based dimensions, n + 1 is Z, outermost first)
 * as 0-based ones in order[0..n]: 0, or the exit status 2 after a message
 * (not n + 1 entries, or not each dimension once). */
static int loop_order(const char *cmd, const int64_t *given, int count, int n, int *order)
{
    int seen[CLI_MAX_EXTENTS + 1] = {0}, i;
    if (count != n + 1)
        return cli_error(cmd, "--loop-order has %d entr%s, --space needs %d: every dimension "
                         "once (1..%d, %d is Z), outermost first", count,
                         count == 1 ? "y" : "ies", n + 1, n + 1, n + 1);
    for (i = 0; i <= n; i++) {
        if (given[i] < 1 || given[i] > n + 1 || seen[given[i]]++)
            return cli_error(cmd, "--loop-order: entry %d is %lld: list each dimension 1..%d "
                             "once (%d is Z), outermost first", i + 1, (long long)given[i],
                             n + 1, n + 1);
        order[i] = (int)given[i] - 1;
    }
    return 0;
}

int cli_stencil_nest(const char *cmd, const cli_stencil *s, struct topo_nest *nest,
                     cli_skew *out)
{
    tile_config cfg;
    tile_deps d;
    char msg[sizeof ((tile_plan *)0)->errmsg];
    int i, j, k, rc, order[CLI_MAX_EXTENTS];
    if (s->norder >= 0 && (rc = loop_order(cmd, s->order, s->norder, s->n, order)) != 0)
        return rc;
    if (s->n > TILE_MAX_DIMS || s->nvec > TILE_MAX_STENCIL)
        return cli_error(cmd, "--stencil: this stencil needs the plan's skew, which takes at "
                         "most %d dimensions besides Z and %d vectors (tiling.h's "
                         "TILE_MAX_DIMS, TILE_MAX_STENCIL); this one has %d and %d",
                         TILE_MAX_DIMS, TILE_MAX_STENCIL, s->n, s->nvec);
    tile_config_init(&cfg, s->n);
    for (i = 0; i < s->n; i++) {
        cfg.extent[i] = s->space[i];
        cfg.dep[i] = 0;
    }
    cfg.zlen = s->space[s->n];
    cfg.depz = 0;
    cfg.nstencil = s->nvec;
    for (k = 0; k < s->nvec; k++)
        for (i = 0; i <= s->n; i++)
            cfg.stencil[k][i] = s->vec[k * s->stride + i];
    for (i = 0; i <= s->n; i++) {
        if (s->ndir >= 0 && s->dir[i] != 1 && s->dir[i] != -1)
            return cli_error(cmd, "--dir: entry %d is %lld: give 1 (the loop runs upward) or -1 "
                             "(downward)", i + 1, (long long)s->dir[i]);
        cfg.dir[i] = s->ndir >= 0 ? (int)s->dir[i] : 1;
        cfg.loop_order[i] = s->norder >= 0 ? order[i] : -1;
    }
    rc = tile_config_deps(&cfg, &d, msg, sizeof msg);
    if (rc != TILE_OK)
        return cli_error(cmd, "--stencil: %s", msg);
    out->skewed = d.skewed;
    out->dz = d.dz;
    for (i = 0; i <= s->n; i++)
        out->size[i] = d.size[i];
    topo_nest_init(nest, s->n, d.size, d.size[s->n], NULL, NULL);
    for (i = 0; i < s->n; i++) {
        nest->dep[i] = d.d[i];
        for (j = 0; j < i; j++)
            nest->ext[i][j] = d.ext[i][j];
    }
    return 0;
}
