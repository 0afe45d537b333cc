/* tests/mpi_tiling.c -- every model against a plain sequential loop, bitwise.
 *
 * Many random small configurations (the same on every rank): N = 1, 2, 3
 * (2D, 3D and 4D spaces), extents not divisible by the grid or by the tile
 * height, tile heights larger than Z, dependences 0..2 along every
 * dimension, grids chosen by either policy or fixed by hand (P_i = 1
 * included), 1-3 threads with a random balancing factor.  With full storage
 * every point this rank owns is compared with the sequential value; with
 * the Z window the sum of the bit patterns of every computed point is.
 * Run at 1-4 processes by tests/run.sh.
 */
#include <mpi.h>

#include "../hybrid.h"
#include "check.h"

#include <string.h>

static int nprocs, myrank;
static int next_order;          /* the in-tile order of the next random configuration */
static int64_t split_changes;   /* runs whose thread split changed mid-run */
static int next_messages;       /* cfg.messages of the next random configuration */
static int messaging_runs[3];   /* configurations that ran, per run.messaging */
static int parted_multiple;     /* multiple-model configurations with partitioned messages */

/* Deterministic generator, identical on every rank. */

/* The point update, written once per N for the toolkit (through TILE_AT)
 * and once for the sequential loop (through get()).  The same expression in
 * the same order, so the results must agree to the last bit. */
#define UPDATE(READ, CX)                                                          \
    double v = 0.1 + 0.001 * (double)((CX) % 13);                                 \
    int a_, i_;                                                                   \
    for (i_ = 0; i_ <= n; i_++)                                                   \
        for (a_ = 1; a_ <= (i_ < n ? cfg->dep[i_] : cfg->depz); a_++)            \
            v = 0.5 * v + 0.3 * READ(i_, a_);

/* A point of the sequential loop's array, or the boundary
 * (check_edge_value) where a coordinate is negative. */
static double seq_get(const check_seq *s, const int64_t *c)
{
    int64_t idx = 0;
    int i;
    for (i = 0; i <= s->n; i++) {
        if (c[i] < 0)
            return check_edge_value(c, s->n);
        idx = idx * s->ext[i] + c[i];
    }
    return s->a[idx];
}

/* The plain sequential loop nest over X_1 x ... x X_N x Z (odometer order). */
static void seq_run(check_seq *s, const tile_config *cfg)
{
    int n = cfg->n, i;
    int64_t c[4] = { 0, 0, 0, 0 }, total = check_seq_init(s, cfg), idx;
    for (idx = 0; idx < total; idx++) {
        int64_t r = idx;
        for (i = n; i >= 0; i--) {
            c[i] = r % s->ext[i];
            r /= s->ext[i];
        }
        {
#define SEQ_READ(dim, back) (c[dim] -= (back), tmp = seq_get(s, c), c[dim] += (back), tmp)
            double tmp;
            UPDATE(SEQ_READ, c[0] + c[n])
            s->a[idx] = v;
#undef SEQ_READ
        }
    }
}


#define R1(d, a) ((d) == 0 ? TILE_AT(double, it, -(a), 0) : TILE_AT(double, it, 0, -(a)))
#define R2(d, a)                                                                 \
    ((d) == 0   ? TILE_AT(double, it, -(a), 0, 0)                                \
     : (d) == 1 ? TILE_AT(double, it, 0, -(a), 0)                                \
                : TILE_AT(double, it, 0, 0, -(a)))
#define R3(d, a)                                                                 \
    ((d) == 0   ? TILE_AT(double, it, -(a), 0, 0, 0)                             \
     : (d) == 1 ? TILE_AT(double, it, 0, -(a), 0, 0)                             \
     : (d) == 2 ? TILE_AT(double, it, 0, 0, -(a), 0)                             \
                : TILE_AT(double, it, 0, 0, 0, -(a)))
CHECK_DEFINE_RUNS(UPDATE, R1, R2, R3)

/* A custom policy that changes the master's share almost every tile, and
 * differently on every rank: the schedule must drain and stay exact. */
static double jumpy(void *ctx, int64_t k, int rank)
{
    (void)ctx;
    return (double)((k * 7 + rank * 3) % 11) / 10.0;
}

/* Random configuration valid for nprocs processes. */
static void random_config(tile_config *cfg, int n)
{
    int i;
    tile_config_init(cfg, n);
    for (i = 0; i < n; i++) {
        cfg->dep[i] = (int)check_rnd_in(0, 2);
        cfg->extent[i] = check_rnd_in(1, n == 1 ? 40 : n == 2 ? 13 : 7);
    }
    cfg->depz = (int)check_rnd_in(0, 2);
    cfg->zlen = check_rnd_in(1, n == 1 ? 60 : n == 2 ? 25 : 9);
    cfg->tile_height = check_rnd_in(1, cfg->zlen + 3);
    cfg->model = (int)check_rnd_in(TILE_MODEL_MPI, TILE_MODEL_MULTIPLE);
    cfg->threads = cfg->model == TILE_MODEL_MPI ? 1 : (int)check_rnd_in(1, 3);
    cfg->balance.bal = (double)check_rnd_in(0, 100) / 100.0;
    /* balancing policies of the funneled model: adaptive re-evaluated every
     * 1-3 steps changes the thread split (with a drain) at timing-dependent
     * tiles; constant/variable with tiny or huge costs clamp to 0 or 1 */
    cfg->balance.policy = (int)check_rnd_in(BAL_POLICY_FIXED, BAL_POLICY_CUSTOM);
    cfg->balance.fn = jumpy;
    cfg->balance.adapt_sample = check_rnd_in(1, 3);
    cfg->balance.adapt_period = check_rnd_in(1, 3);
    cfg->balance.adapt_smoothing = check_rnd_in(0, 1) ? 1.0 : 0.5;
    cfg->balance.tcomp = check_rnd_in(0, 1) ? 0.0 : 1e-8 * (double)check_rnd_in(1, 100);
    cfg->balance.tstartup = 1e-6 * (double)check_rnd_in(0, 1000);
    cfg->balance.bandwidth = check_rnd_in(0, 2) == 0 ? 0.0 : 1e6 * (double)check_rnd_in(1, 10000); /* 0: measure */
    cfg->messages = next_messages++ % 3;    /* persistent, nonblocking, partitioned in turn */
    cfg->elem_size = sizeof(double);
    check_rnd_finish(cfg, nprocs, &next_order);
}

/* Run one configuration; returns 1 if it ran and matched, 0 if it failed,
 * -1 if the configuration was (rightly) rejected. */
static int one_case(int n, tile_config *cfg, char *why, size_t whylen)
{
    tile_plan plan;
    tile_reduction acc;
    check_seq s;
    int rc, ok = 1, all;
    uint64_t sum = 0;

    /* rejections must be the documented ones for impossible sizes */
    rc = check_case_plan(&plan, cfg, &acc, why, whylen);
    if (rc != 1)
        return rc;
    messaging_runs[plan.run.messaging]++;
    parted_multiple += cfg->model == TILE_MODEL_MULTIPLE && cfg->messages ==
                       TILE_MESSAGES_PARTITIONED && plan.run.messaging == TILE_MESSAGES_PARTITIONED;
    run_n(n, &plan, cfg, &acc);
    if (tile_plan_status(&plan) != TILE_OK) {
        snprintf(why, whylen, "run failed: %.200s", plan.errmsg);
        ok = 0;
    }
    seq_run(&s, cfg);
    sum = myrank == 0 ? acc.u64 : 0;   /* the total on every rank: count it once */
    ok = check_seq_compare(&plan, &s, sum, ok, why, whylen);
    free(s.a);
    {
        int64_t mine = plan.run.bal_changes > 0, any = 0;
        MPI_Allreduce(&mine, &any, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
        split_changes += any;
    }
    tile_plan_destroy(&plan);
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    return all;
}

static const char *const balance_name[5] = { "fixed", "constant", "variable", "adaptive",
                                             "custom" };

static void describe(const tile_config *c, char *buf, size_t len)
{
    int i, o = 0;
    o += snprintf(buf + o, len - (size_t)o, "space ");
    for (i = 0; i < c->n; i++)
        o += snprintf(buf + o, len - (size_t)o, "%lldx", (long long)c->extent[i]);
    o += snprintf(buf + o, len - (size_t)o, "%lld deps ", (long long)c->zlen);
    for (i = 0; i < c->n; i++)
        o += snprintf(buf + o, len - (size_t)o, "%d,", c->dep[i]);
    snprintf(buf + o, len - (size_t)o, "%d z=%lld model=%s T=%d bal=%.2f balance=%s policy=%d "
             "storage=%d order=%d grid0=%d messages=%d", c->depz, (long long)c->tile_height,
             tile_model_name(c->model), c->threads, c->balance.bal, balance_name[c->balance.policy],
             c->grid_policy, c->storage, c->order, c->grid[0], c->messages);
}

int main(int argc, char **argv)
{
    int n;
    check_rng_seed(check_seed(88172645463325252ull));
    if (!check_hybrid_init(&argc, &argv, 3, &myrank, &nprocs))
        return 1;

    for (n = 1; n <= 3; n++) {
        int cases = 0, rejected = 0, failed = 0, per_model[4] = { 0, 0, 0, 0 }, k;
        int const ncases = check_cases(60, 16);
        split_changes = 0;
        char why[512] = "", desc[256] = "";
        for (k = 0; k < ncases; k++) {
            tile_config cfg;
            int r;
            r = check_random_case(n, &cfg, random_config, one_case, why, sizeof why, &cases,
                                  &rejected);
            if (r < 0)
                continue;
            per_model[cfg.model]++;
            if (r == 0 && failed++ == 0)
                describe(&cfg, desc, sizeof desc);
        }
        check_mpi(MPI_COMM_WORLD, failed == 0,
                  "N=%d: %d random configurations bitwise equal to the sequential loop "
                  "(mpi %d, fine %d, funneled %d, multiple %d; %lld changed the thread split "
                  "mid-run; %d rejected as impossible)", n, cases, per_model[0], per_model[1],
                  per_model[2], per_model[3], (long long)split_changes, rejected);
        if (failed && myrank == 0)
            check_note("first failure: %s -- %s", desc, why);
        check_mpi(MPI_COMM_WORLD, cases >= check_cases(30, 1), "N=%d: enough configurations ran "
                  "(%d of %d)", n, cases, ncases);
    }
    /* the thread split changes nearly every tile, differently on every rank:
     * drains in the schedule, whole-face messages between unequal splits */
    for (n = 1; n <= 3; n++) {
        int cases = 0, failed = 0, k;
        char why[512] = "", desc[256] = "";
        split_changes = 0;
        for (k = 0; k < 12; k++) {      /* small (the extents below): all in both tiers */
            tile_config cfg;
            int r, i;
            random_config(&cfg, n);
            cfg.model = TILE_MODEL_FUNNELED;
            cfg.threads = (int)check_rnd_in(2, 3);
            cfg.balance.policy = BAL_POLICY_CUSTOM;
            cfg.tile_height = check_rnd_in(1, 3);
            for (i = 0; i < n; i++)
                cfg.extent[i] = check_rnd_in(6, n == 3 ? 8 : 14);
            r = one_case(n, &cfg, why, sizeof why);
            if (r < 0)
                continue;
            cases++;
            if (r == 0 && failed++ == 0)
                describe(&cfg, desc, sizeof desc);
        }
        /* (a seed other than the test's own, CHECK_SEED, may draw fewer) */
        check_mpi(MPI_COMM_WORLD, failed == 0 && (check_sampled() || split_changes >= cases / 2),
                  "N=%d: funneled with a per-tile, per-rank factor: %d configurations bitwise "
                  "equal, %lld of them changed the split mid-run", n, cases,
                  (long long)split_changes);
        if (failed && myrank == 0)
            check_note("first failure: %s -- %s", desc, why);
    }
    check_every_order("configurations");
    /* every kind: a full run with the test's own seed draws them all; a
     * sample (CHECK_SEED) may miss the rare multiple-model partitioned one */
    check_mpi(MPI_COMM_WORLD, messaging_runs[TILE_MESSAGES_PERSISTENT] > 0 &&
              messaging_runs[TILE_MESSAGES_NONBLOCKING] > 0 &&
              (TILE_HAVE_PARTITIONED ? (parted_multiple > 0 || check_sampled()) &&
                                       messaging_runs[2] == parted_multiple
                                     : messaging_runs[TILE_MESSAGES_PARTITIONED] == 0),
              "the random configurations ran with every kind of face messages (persistent %d, "
              "nonblocking %d, partitioned %d: %s)", messaging_runs[0], messaging_runs[1],
              messaging_runs[2], TILE_HAVE_PARTITIONED ? "the multiple model's, MPI-4; the other "
              "models fell back to persistent" : "this MPI has no MPI-4 partitioned "
              "communication: every one fell back to persistent");
    return check_mpi_exit();
}
