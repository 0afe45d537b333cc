/* tests/mpi_topology_faces.c -- topology.h's volume model against the
 * bytes tiling.h really sends, with diagonal stencils (extended faces).
 *
 * Random declared stencils in N = 2 and 3 (diagonals in every plane,
 * random directions), random extents, tile heights and models, on the
 * grid the plan chooses or a random fixed one: the widths and extensions
 * topo_nest_stencil() derives must be the plan's own (plan.deps), and the
 * bytes every process sent must add up, exactly, to the model's
 * total_volume; process (0, ..., 0), the largest block, must send exactly
 * volume_sent and the most of all; in the pure MPI model it sends one
 * message per tile along every dimension with P_i > 1 and d_i > 0 (the
 * time model's m).  Then a case where the extended faces change the
 * volume-optimal grid, measured on both grids at 4 processes, and the
 * grid the plan chooses under every policy (TILE_GRID_TIME with random
 * costs) against topology.h's choice for the same nest.  The random cases
 * again with a vector that reads ahead (earlier along Z, later along an
 * X): the plan skews, and the model on tile_config_deps()' skewed space
 * must be exact too.
 * Run at 1-4 processes by tests/run.sh.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200112L     /* setenv */
#endif
#include <mpi.h>

#include "../hybrid.h"
#include "check.h"

#include <string.h>

static int nprocs, myrank;
static int skew_mode;   /* random_config adds a vector that reads ahead: the plan skews */

/* Deterministic generator, identical on every rank. */

/* The body only writes: the bytes sent do not depend on the values. */
static void run_plan(tile_plan *plan)
{
    if (plan->cfg.n == 2)
        HYBRID_RUN(plan, it, { TILE_AT(double, it, 0, 0, 0) = 1.0; });
    else
        HYBRID_RUN(plan, it, { TILE_AT(double, it, 0, 0, 0, 0) = 1.0; });
}

/* A component of a random vector: 0 (a third), else -2..0 (-1..0 along
 * Z); vector 0 reads diagonally in dimensions 1 and 2 (-2 or -1). */
static int diagonal_component(int k, int i, int n)
{
    int u = check_rnd_in(0, 2) == 0 ? 0 : -(int)check_rnd_in(0, i < n ? 2 : 1);
    if (k == 0 && i < 2)
        u = -(int)check_rnd_in(1, 2); /* vector 0: diagonal in dims 1, 2 */
    return u;
}

/* A random stencil with diagonals: components -2..0 along the directions,
 * in the user's coordinates; at least one vector reads along two of the
 * distributed dimensions. */
static void random_config(tile_config *cfg, int n)
{
    int i;
    tile_config_init(cfg, n);
    for (i = 0; i < n; i++) {
        cfg->extent[i] = check_rnd_in(4, n == 2 ? 14 : 8);
        cfg->dep[i] = 0;
    }
    cfg->zlen = check_rnd_in(1, 12);
    cfg->depz = 0;
    for (i = 0; i <= n; i++)
        cfg->dir[i] = check_rnd_in(0, 2) == 0 ? -1 : 1;
    cfg->nstencil = (int)check_rnd_in(1, 4);
    check_rnd_vectors(cfg, diagonal_component);
    if (skew_mode) {   /* earlier along Z (the outermost loop), later along one X */
        int k = cfg->nstencil++, x = (int)check_rnd_in(0, n - 1);
        for (i = 0; i <= n; i++)
            cfg->stencil[k][i] = i == n ? -cfg->dir[i] : i == x ? cfg->dir[i] : 0;
    }
    cfg->tile_height = check_rnd_in(1, cfg->zlen + 2);
    cfg->model = (int)check_rnd_in(TILE_MODEL_MPI, TILE_MODEL_MULTIPLE);
    cfg->threads = cfg->model == TILE_MODEL_MPI ? 1 : (int)check_rnd_in(1, 2);
    if (check_rnd_in(0, 2) == 0) {
        int d = (int)check_rnd_in(0, n - 1);
        for (i = 0; i < n; i++)
            cfg->grid[i] = i == d ? nprocs : 1;
    }
}

/* The model's nest for the plan: topo_nest_stencil() on the same stencil
 * and directions; for a stencil the plan skews, the skewed space and its
 * widths from tile_config_deps() (as tilectl topo and plan build it).  1 if
 * its widths and extensions are the plan's. */
static int plan_nest(const tile_plan *plan, topo_nest *m)
{
    const tile_config *c = &plan->cfg;
    tile_deps d;
    int i, j, same = 1;
    if (tile_config_deps(c, &d, NULL, 0) != TILE_OK || d.skewed != plan->deps.skewed)
        return 0;
    if (d.skewed) {
        topo_nest_init(m, c->n, d.size, d.size[c->n], NULL, NULL);
        for (i = 0; i < c->n; i++) {
            same &= d.size[i] == plan->deps.size[i];
            m->dep[i] = d.d[i];
            for (j = 0; j < i; j++)
                m->ext[i][j] = d.ext[i][j];
        }
    } else if (topo_nest_init(m, c->n, c->extent, c->zlen, NULL, NULL) != TOPO_OK ||
               topo_nest_stencil(m, c->nstencil, &c->stencil[0][0], TILE_MAX_DIMS + 1, c->dir,
                                 NULL) != TOPO_OK)
        return 0;
    m->elem_bytes = (double)c->elem_size;
    m->tile_height = c->tile_height;
    for (i = 0; i < c->n; i++) {
        same &= m->dep[i] == plan->deps.d[i];
        for (j = 0; j < i; j++)
            same &= m->ext[i][j] == plan->deps.ext[i][j];
    }
    return same;
}

/* What the run measured, against the model: 1 if equal (why says what
 * differs); *plain_differs = 1 if the model without extensions would not
 * have been equal. */
static int compare(const tile_plan *plan, const topo_nest *m, int *plain_differs, char *why,
                   size_t len)
{
    int64_t bytes = plan->run.bytes_sent, sum = 0, max = 0, first = -1, elem;
    int64_t msgs0 = 0, want_msgs = 0, ntiles;
    int i, origin = 1;
    topo_report r, r0, plain, plain0;
    topo_nest first_nest;
    elem = (int64_t)plan->cfg.elem_size;
    for (i = 0; i < plan->cfg.n; i++)
        origin &= plan->pcoords[i] == 0;
    MPI_Allreduce(&bytes, &sum, 1, MPI_INT64_T, MPI_SUM, plan->comm);
    MPI_Allreduce(&bytes, &max, 1, MPI_INT64_T, MPI_MAX, plan->comm);
    if (origin) {
        first = bytes;
        msgs0 = plan->run.messages;
    }
    MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT64_T, MPI_MAX, plan->comm);
    MPI_Allreduce(MPI_IN_PLACE, &msgs0, 1, MPI_INT64_T, MPI_MAX, plan->comm);
    /* The model's process 0 holds the largest blocks.  Along a dimension
     * run downward the plan keeps the upward blocks, so its first process
     * holds the last one: the model of the space cut to P_i floor(X_i/P_i)
     * along i (every block the last one's size). */
    first_nest = *m;
    for (i = 0; i < m->n; i++)
        if (plan->deps.dir[i] < 0 && !plan->deps.skewed)
            first_nest.extent[i] = plan->pdims[i] * (m->extent[i] / plan->pdims[i]);
    if (topo_nest_report(m, plan->pdims, &r, NULL) != TOPO_OK ||
        topo_nest_report(&first_nest, plan->pdims, &r0, NULL) != TOPO_OK ||
        topo_report_grid(m->n, plan->pdims, m->extent, m->zlen, m->dep, &plain) != TOPO_OK ||
        topo_report_grid(m->n, plan->pdims, first_nest.extent, m->zlen, m->dep, &plain0) !=
            TOPO_OK) {
        snprintf(why, len, "no report");
        return 0;
    }
    *plain_differs = plain0.volume_sent * elem != first || plain.total_volume * elem != sum;
    ntiles = (m->zlen + m->tile_height - 1) / m->tile_height;
    for (i = 0; i < m->n; i++)
        want_msgs += plan->pdims[i] > 1 && m->dep[i] > 0 ? ntiles : 0;
    snprintf(why, len, "grid %dx%dx%d: process 0 sent %lld bytes (model %lld), all %lld "
             "(model %lld), the most %lld, messages %lld (model %lld)", plan->pdims[0],
             plan->pdims[1], m->n > 2 ? plan->pdims[2] : 1, (long long)first,
             (long long)(r0.volume_sent * elem), (long long)sum,
             (long long)(r.total_volume * elem), (long long)max, (long long)msgs0,
             (long long)want_msgs);
    return first == r0.volume_sent * elem && sum == r.total_volume * elem && max == first &&
           (plan->cfg.model != TILE_MODEL_MPI || msgs0 == want_msgs);
}

/* 1: ran and matched; 0: failed; -1: rightly refused (sizes). */
static int one_case(tile_config *cfg, int *plain_differs, char *why, size_t len)
{
    tile_plan plan;
    topo_nest m;
    int rc, ok;
    rc = check_plan_case(&plan, cfg, why, len);
    if (rc != 1)
        return rc;
    if (!plan_nest(&plan, &m)) {
        snprintf(why, len, "topo_nest_stencil's widths or extensions differ from plan.deps");
        tile_plan_destroy(&plan);
        return 0;
    }
    run_plan(&plan);
    ok = tile_plan_status(&plan) == TILE_OK;
    if (!ok)
        snprintf(why, len, "run failed: %.200s", plan.errmsg);
    else
        ok = compare(&plan, &m, plain_differs, why, len);
    tile_plan_destroy(&plan);
    return ok;
}

static void random_cases(int n, int count)
{
    int c, ran = 0, refused = 0, failed = 0, extended = 0;
    char why[512] = "";
    for (c = 0; c < count; c++) {
        tile_config cfg;
        int differs = 0, r;
        random_config(&cfg, n);
        r = one_case(&cfg, &differs, why, sizeof why);
        if (r < 0) {
            refused++;
            continue;
        }
        ran++;
        extended += differs;
        if (!r && failed++ < 3 && myrank == 0)
            check_note("N=%d case %d: %s", n, c, why);
    }
    check_mpi(MPI_COMM_WORLD, failed == 0 && ran > count / 2 &&
                              (nprocs == 1 || extended > 0 || check_sampled()),
          "N=%d, %d random diagonal stencils%s on %d process%s (%d refused as too small): "
          "%s = plan.deps; bytes sent by process 0, by all and the most, and "
          "the pure MPI model's messages, exactly the model's (%d where the model without "
          "extended faces is wrong)", n, ran,
          skew_mode ? " that read ahead (skewed; the model on tile_config_deps' skewed space)" : "",
          nprocs, nprocs == 1 ? "" : "es", refused,
          skew_mode ? "tile_config_deps" : "topo_nest_stencil",
          extended);
}

/* 7x4x4, every face extended by 1: the model says 2x1x2 sends less than
 * the plain model's choice 1x2x2; the engine agrees, byte for byte. */
static void grid_choice_case(void)
{
    static const int grids[2][3] = {{2, 1, 2}, {1, 2, 2}};
    int64_t measured[2] = {0, 0}, model[2] = {0, 0};
    int g, i, ok = 1;
    if (nprocs != 4) {
        if (myrank == 0)
            check_skip("it needs 4 processes", "extended faces change the volume-optimal "
                       "grid, and the engine's bytes agree");
        return;
    }
    for (g = 0; g < 2; g++) {
        tile_config cfg;
        tile_plan plan;
        topo_nest m;
        topo_report r;
        int64_t sum = 0;
        memset(&r, 0, sizeof r);
        tile_config_init(&cfg, 3);
        cfg.extent[0] = 7;
        cfg.extent[1] = cfg.extent[2] = 4;
        cfg.zlen = 10;
        cfg.tile_height = 3;
        for (i = 0; i < 3; i++)
            cfg.grid[i] = grids[g][i];
        ok &= tile_config_stencil(&cfg, "-1,-1,-1,0 -1,0,0,0 0,-1,0,0 0,0,-1,-1", NULL) ==
              TILE_OK;
        ok &= tile_plan_create(&plan, MPI_COMM_WORLD, &cfg) == TILE_OK && plan_nest(&plan, &m);
        if (ok) {
            run_plan(&plan);
            MPI_Allreduce(&plan.run.bytes_sent, &sum, 1, MPI_INT64_T, MPI_SUM, plan.comm);
            ok &= tile_plan_status(&plan) == TILE_OK &&
                  topo_nest_report(&m, grids[g], &r, NULL) == TOPO_OK;
            measured[g] = sum;
            model[g] = ok ? r.total_volume * 8 : -1;
        }
        tile_plan_destroy(&plan);
    }
    check_mpi(MPI_COMM_WORLD, ok && measured[0] == model[0] && measured[1] == model[1] && measured[0] < measured[1],
          "7x4x4 on 4 processes, stencil \"-1,-1,-1,0 -1,0,0,0 0,-1,0,0 0,0,-1,-1\": 2x1x2 "
          "sends %lld bytes (model %lld), 1x2x2 %lld (model %lld)", (long long)measured[0],
          (long long)model[0], (long long)measured[1], (long long)model[1]);
    {
        int64_t x[3] = {7, 4, 4};
        int pick[3] = {0, 0, 0};
        topo_nest m;
        static const int vec[4][4] = {{-1, -1, -1, 0}, {-1, 0, 0, 0}, {0, -1, 0, 0},
                                      {0, 0, -1, -1}};
        topo_nest_init(&m, 3, x, 10, NULL, NULL);
        topo_nest_stencil(&m, 4, &vec[0][0], 4, NULL, NULL);
        check_mpi(MPI_COMM_WORLD,
                  topo_nest_grid(&m, 4, TOPO_POLICY_COMM, pick, NULL) == TOPO_OK && pick[0] == 2 &&
                  pick[1] == 1 && pick[2] == 2,
              "topo_nest_grid picks that grid, 2x1x2");
    }
}

/* The grid the plan chooses (cfg.grid free) is topology.h's for the same
 * nest, under every policy: extended faces counted by TILE_GRID_COMM, the
 * cost model (cfg.balance's costs) by TILE_GRID_TIME.  Random stencils and
 * costs; the choices that differ between the policies are counted. */
static void policy_cases(int n, int count)
{
    static const char *const pname[3] = { "comm", "latency", "time" };
    int j, ran = 0, refused = 0, ok = 1, differ = 0, per[3] = {0, 0, 0};
    char why[400] = "";
    for (j = 0; j < count; j++) {
        tile_config cfg;
        tile_plan plan;
        topo_nest m;
        int pick[3] = {0, 0, 0}, comm[3] = {0, 0, 0}, i, rc, same = 1;
        random_config(&cfg, n);
        for (i = 0; i < n; i++)
            cfg.grid[i] = 0;
        cfg.grid_policy = j % 3;
        cfg.balance.tcomp = 1e-9 * (double)check_rnd_in(1, 1000);
        cfg.balance.tstartup = 1e-6 * (double)check_rnd_in(1, 10000);
        cfg.balance.bandwidth = 1e6 * (double)check_rnd_in(1, 10000);
        rc = tile_plan_create(&plan, MPI_COMM_WORLD, &cfg);
        if (rc == TILE_ERR_TOO_MANY || rc == TILE_ERR_DEP_TOO_WIDE) {
            refused++;
            tile_plan_destroy(&plan);
            continue;
        }
        if (rc != TILE_OK || !plan_nest(&plan, &m)) {
            snprintf(why, sizeof why, "case %d (%s): error %d: %.200s", j,
                     pname[cfg.grid_policy], rc, plan.errmsg);
            ok = 0;
            tile_plan_destroy(&plan);
            break;
        }
        m.tcomp = cfg.balance.tcomp;
        m.tstartup = cfg.balance.tstartup;
        m.bandwidth = cfg.balance.bandwidth;
        rc = topo_nest_grid(&m, nprocs, (topo_policy)cfg.grid_policy, pick, NULL);
        rc |= topo_nest_grid(&m, nprocs, TOPO_POLICY_COMM, comm, NULL);
        for (i = 0; i < n; i++) {
            same &= plan.pdims[i] == pick[i];
            differ += cfg.grid_policy == TILE_GRID_TIME && i == 0 && rc == TOPO_OK &&
                      memcmp(pick, comm, sizeof pick) != 0;
        }
        if (rc != TOPO_OK || !same) {
            snprintf(why, sizeof why, "case %d (%s): the plan chose %dx%dx%d, topology.h %dx%dx%d "
                     "(%s)", j, pname[cfg.grid_policy], plan.pdims[0], plan.pdims[1],
                     n > 2 ? plan.pdims[2] : 1, pick[0], pick[1], n > 2 ? pick[2] : 1,
                     topo_strerror(rc));
            ok = 0;
            tile_plan_destroy(&plan);
            break;
        }
        ran++;
        per[cfg.grid_policy]++;
        tile_plan_destroy(&plan);
    }
    check_mpi(MPI_COMM_WORLD, ok && per[0] > 0 && per[1] > 0 && per[2] > 0 &&
                              (nprocs == 1 || differ > 0 || check_sampled()),
              "N=%d: the plan's own grid is topology.h's in %d random cases (comm %d, latency "
              "%d, time %d; %d refused as too small; the time policy chose another grid than "
              "the volume's in %d)%s%s", n, ran, per[0], per[1], per[2], refused, differ,
              why[0] ? ": " : "", why);
}

/* The engine itself picks the grid that extended faces favour (2x1x2 for
 * the case above), and a malformed TILEHYBRID_* cost on one rank fails
 * every rank under TILE_GRID_TIME (and is not read by the other policies). */
static void engine_grid_case(void)
{
    tile_config cfg;
    tile_plan plan;
    int rc, ok, bad, other;
    tile_config_init(&cfg, 3);
    cfg.extent[0] = 7;
    cfg.extent[1] = cfg.extent[2] = 4;
    cfg.zlen = 10;
    cfg.tile_height = 3;
    tile_config_stencil(&cfg, "-1,-1,-1,0 -1,0,0,0 0,-1,0,0 0,0,-1,-1", NULL);
    rc = tile_plan_create(&plan, MPI_COMM_WORLD, &cfg);
    ok = rc == TILE_OK && (nprocs != 4 || (plan.pdims[0] == 2 && plan.pdims[1] == 1 &&
                                           plan.pdims[2] == 2));
    tile_plan_destroy(&plan);
    if (nprocs == 4)
        check_mpi(MPI_COMM_WORLD, ok, "the plan's own volume-optimal grid for that stencil is "
                  "2x1x2 (extended faces counted)");
    if (myrank == nprocs - 1)
        setenv("TILEHYBRID_TCOMP", "fast", 1);
    other = tile_plan_create(&plan, MPI_COMM_WORLD, &cfg) == TILE_OK;
    tile_plan_destroy(&plan);
    cfg.grid_policy = TILE_GRID_TIME;
    rc = tile_plan_create(&plan, MPI_COMM_WORLD, &cfg);
    bad = rc == TILE_ERR_BALANCE && strstr(plan.errmsg, "TILEHYBRID_TCOMP") != NULL;
    if (!bad)
        check_note("rank %d: got %d: %s", myrank, rc, plan.errmsg);
    tile_plan_destroy(&plan);
    unsetenv("TILEHYBRID_TCOMP");
    check_mpi(MPI_COMM_WORLD, bad && other, "TILEHYBRID_TCOMP=fast on the last rank: "
              "TILE_GRID_TIME fails on every rank naming it (TILE_ERR_BALANCE), the volume "
              "policy does not read it");
}

int main(int argc, char **argv)
{
    check_rng_seed(check_seed(0x2545f4914f6cdd1dull));
    if (!check_hybrid_init(&argc, &argv, 2, &myrank, &nprocs))
        return 1;
    random_cases(2, 60);
    random_cases(3, 40);
    skew_mode = 1;   /* the same on the skewed space of stencils that read ahead */
    random_cases(2, 40);
    random_cases(3, 30);
    skew_mode = 0;
    grid_choice_case();
    policy_cases(2, 30);
    policy_cases(3, 30);
    engine_grid_case();
    return check_mpi_exit();
}
