/* tests/check.h -- TAP output for the C test programs.
 *
 * Every check prints one TAP line (the Test Anything Protocol, as read by
 * `prove`, which tests/run.sh runs them with):
 *
 *     ok 1 - name
 *     not ok 2 - name
 *     ok 3 - name # SKIP reason
 *     # a diagnostic
 *     1..3
 *
 * The plan line comes last, from check_exit(), so a program that crashes or
 * stops early has no plan (or fewer tests than its plan) and fails.  Run one
 * program with prove (after `make check` built it):
 *
 *     prove -v build/tests/unit_topology
 *     prove -v --exec 'mpiexec -n 2' build/tests/mpi_topology
 *
 * In a name, '#' is written "\#" (as Test::More does) and a newline as a
 * space, so that no name can read as a directive or break a line.
 *
 * In MPI tests use check_mpi(): the condition is combined over all ranks with
 * MPI_Allreduce (logical and) and only rank 0 prints, so a check fails when
 * any rank fails.  Every rank must call it the same number of times.  check()
 * and check_skip() print on the rank that calls them: in an MPI test call them
 * on rank 0 alone.  Only the process that printed test lines prints the plan.
 */
#ifndef TILEHYBRID_TESTS_CHECK_H
#define TILEHYBRID_TESTS_CHECK_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_failures;
static int check_count;
static int check_printed; /* test lines this process printed: their number */

/* Print a name: '#' escaped, newlines as spaces. */
static inline void check_name(const char *fmt, va_list ap)
{
    char buf[2048];
    const char *s;
    vsnprintf(buf, sizeof buf, fmt, ap);
    for (s = buf; *s; s++) {
        if (*s == '#')
            putchar('\\');
        putchar(*s == '\n' || *s == '\r' ? ' ' : *s);
    }
}

/* One test line: "ok N - name" or "not ok N - name", then " # SKIP reason"
 * when skip is not NULL. */
static inline void check_vprint(int ok, const char *skip, const char *fmt, va_list ap)
{
    printf("%sok %d - ", ok ? "" : "not ", ++check_printed);
    check_name(fmt, ap);
    if (skip)
        printf(" # SKIP %s", skip);
    putchar('\n');
    fflush(stdout);
}

/* Record one check named by a printf format.  Returns cond (0 or 1). */
static inline int check(int cond, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    check_vprint(cond != 0, NULL, fmt, ap);
    va_end(ap);
    check_count++;
    if (!cond)
        check_failures++;
    return cond != 0;
}

/* Record a check that cannot run here, and why (reason: one line). */
static inline void check_skip(const char *reason, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    check_vprint(1, reason, fmt, ap);
    va_end(ap);
    check_count++;
}

/* A diagnostic: "# " before every line of it (ignored by the counters). */
static inline void check_note(const char *fmt, ...)
{
    char buf[4096];
    const char *s;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    fputs("# ", stdout);
    for (s = buf; *s; s++) {
        if (*s == '\n' && !s[1])
            break;
        putchar(*s);
        if (*s == '\n')
            fputs("# ", stdout);
    }
    putchar('\n');
    fflush(stdout);
}

/* The plan line, then the exit status for main(): non-zero when any check
 * failed or none ran. */
static inline int check_exit(void)
{
    if (check_printed > 0) {
        printf("1..%d\n", check_printed);
        fflush(stdout);
    }
    return (check_failures == 0 && check_count > 0) ? 0 : 1;
}

/* The tests' random numbers: xorshift64 (Marsaglia), the same sequence on
 * every rank and every machine for the same seed.  A test seeds it once at
 * the start of main() with check_rng_seed() (never 0). */
static uint64_t check_rng_state = 0x9e3779b97f4a7c15ull;

static inline void check_rng_seed(uint64_t seed)
{
    check_rng_state = seed;
}

/* The next 64 random bits. */
static inline uint64_t check_rnd(void)
{
    check_rng_state ^= check_rng_state << 13;
    check_rng_state ^= check_rng_state >> 7;
    check_rng_state ^= check_rng_state << 17;
    return check_rng_state;
}

/* A random whole number in [lo, hi] (lo <= hi). */
static inline int64_t check_rnd_in(int64_t lo, int64_t hi)
{
    return lo + (int64_t)(check_rnd() % (uint64_t)(hi - lo + 1));
}

/* The two tiers (tests/run.sh).  `make check` is the quick tier: run.sh
 * exports CHECK_TIER=quick and CHECK_SEED, a number it prints first
 * (CHECK_SEED=N make check draws the same sample again); `make check-full`
 * runs every case, with each test's own fixed seed unless CHECK_SEED is
 * set.  A test seeds its random numbers with check_rng_seed(check_seed(own))
 * and runs check_cases(full, quick) random cases in a loop of full. */

/* Whether this run is the quick tier (CHECK_TIER=quick). */
static inline int check_quick(void)
{
    const char *t = getenv("CHECK_TIER");
    return t != NULL && strcmp(t, "quick") == 0;
}

/* The seed of a test whose own is @own: @own mixed with CHECK_SEED when it
 * is set (the same on every rank: mpiexec passes the environment on), else
 * @own; never 0 (xorshift's fixed point). */
static inline uint64_t check_seed(uint64_t own)
{
    const char *s = getenv("CHECK_SEED");
    uint64_t v;
    if (s == NULL || *s == '\0')
        return own;
    v = own ^ (strtoull(s, NULL, 10) * 0x9e3779b97f4a7c15ull);
    v ^= v >> 29;
    return v != 0 ? v : own;
}

/* Whether the random cases are a sample rather than each test's own fixed
 * draw (CHECK_SEED set: the quick tier always sets it): then a check that
 * every kind of case ran may miss a rare kind, and is waived. */
static inline int check_sampled(void)
{
    const char *s = getenv("CHECK_SEED");
    return check_quick() || (s != NULL && *s != '\0');
}

/* How many random cases to run: @full, or @quick in the quick tier. */
static inline int check_cases(int full, int quick)
{
    return check_quick() ? quick : full;
}

#ifdef MPI_VERSION
/* MPI_Init, then this process's rank and the size of MPI_COMM_WORLD (the
 * start of every MPI test's main). */
static inline void check_mpi_init(int *argc, char ***argv, int *rank, int *size)
{
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, size);
}

/* MPI_Finalize, then check_exit()'s status (the end of every MPI test's
 * main). */
static inline int check_mpi_exit(void)
{
    MPI_Finalize();
    return check_exit();
}

/* Collective check: passes only if cond holds on every rank of comm. */
static inline int check_mpi(MPI_Comm comm, int cond, const char *fmt, ...)
{
    int all = 0, rank = 0;
    int mine = cond != 0;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, comm);
    MPI_Comm_rank(comm, &rank);
    check_count++;
    if (!all)
        check_failures++;
    if (rank == 0) {
        va_list ap;
        va_start(ap, fmt);
        check_vprint(all, NULL, fmt, ap);
        va_end(ap);
    }
    return all;
}
#endif

#ifdef TILEHYBRID_HYBRID_H
/* hybrid_init() for the multiple model with `threads` threads, then this
 * process's rank and the size of MPI_COMM_WORLD.  Returns 1 when ready; 0
 * when MPI_THREAD_MULTIPLE is not available: then a failing check has been
 * printed and MPI finalised, and main() returns 1. */
static inline int check_hybrid_init(int *argc, char ***argv, int threads, int *rank, int *size)
{
    int provided;
    if (hybrid_init(argc, argv, TILE_MODEL_MULTIPLE, threads, &provided) != TILE_OK) {
        check(0, "MPI_THREAD_MULTIPLE available");
        MPI_Finalize();
        return 0;
    }
    MPI_Comm_size(MPI_COMM_WORLD, size);
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    return 1;
}
#endif

#ifdef TILEHYBRID_TILING_H
/* A random case's plan on MPI_COMM_WORLD.  Returns 1 when it is ready; -1
 * when it was refused for its sizes (TILE_ERR_TOO_MANY, _DEP_TOO_WIDE or
 * _GRID: the documented refusals of an impossible case); 0 on any other
 * failure, described in why.  The plan is destroyed unless 1 is
 * returned. */
static inline int check_plan_case(tile_plan *plan, const tile_config *cfg, char *why,
                                  size_t whylen)
{
    int rc = tile_plan_create(plan, MPI_COMM_WORLD, cfg);
    if (rc == TILE_OK)
        return 1;
    tile_plan_destroy(plan);
    if (rc == TILE_ERR_TOO_MANY || rc == TILE_ERR_DEP_TOO_WIDE || rc == TILE_ERR_GRID)
        return -1;
    snprintf(why, whylen, "unexpected error %d: %.200s", rc, plan->errmsg);
    return 0;
}

/* check_plan_case() and a TILE_REDUCE_SUM_U64 reduction on the plan.
 * Returns 1 when both are ready, else as check_plan_case() (the plan is
 * destroyed). */
static inline int check_plan_create(tile_plan *plan, const tile_config *cfg,
                                    tile_reduction *acc, char *why, size_t whylen)
{
    int rc = check_plan_case(plan, cfg, why, whylen);
    if (rc != 1)
        return rc;
    if (tile_reduction_init(plan, acc, TILE_REDUCE_SUM_U64, NULL) != TILE_OK) {
        snprintf(why, whylen, "tile_reduction_init failed");
        tile_plan_destroy(plan);
        return 0;
    }
    return 1;
}

/* Every point of a's 3-D space (x0 x x1 x zl, row-major, Z last) that this
 * rank owns and the plan stores equals the plan's, bit for bit, and there
 * is at least one (a plan that stores none of this rank's points, as before
 * a run or after a failed one, compared nothing: that is not a pass).
 * Returns 1 or 0. */
static inline int check_same_3d(const tile_plan *p, const double *a, int64_t x0, int64_t x1,
                                int64_t zl)
{
    int64_t c[3], seen = 0;
    double v;
    for (c[2] = 0; c[2] < zl; c[2]++)
        for (c[0] = 0; c[0] < x0; c[0]++)
            for (c[1] = 0; c[1] < x1; c[1]++) {
                if (tile_get(p, c, &v) != TILE_OK)
                    continue;
                if (memcmp(&v, &a[(c[0] * x1 + c[1]) * zl + c[2]], sizeof v) != 0)
                    return 0;
                seen++;
            }
    return seen > 0;
}
#endif

#ifdef TILEHYBRID_SCATTERLB_H
/* Rank `rank`'s costs among `size`: an order by bandwidth that is not the
 * rank order (a reordered communicator under SLB_ORDER_BANDWIDTH). */
static inline slb_affine check_slb_cost(int rank, int size)
{
    slb_affine a;
    a.comp0 = 0;
    a.mu = 1.0 + (rank % 3);
    a.comm0 = 0.01;
    a.lambda = 0.001 * (double)(size - rank);
    return a;
}
#endif

/* The sequential reference of the end-to-end tests: a boundary and the value
 * of one point of a sequential loop's array. */

/* The tests' boundary (a tile_config boundary callback; ctx unused): a fixed
 * pattern of the point c, in [0, 1). */
static inline void check_edge(void *out, const int64_t *c, void *ctx)
{
    (void)ctx;
    *(double *)out = (double)((31 * c[0] + 17 * c[1] + 7 * c[2] + 1000003) % 97) / 97.0;
}

/* A[x][y][z] of a sequential loop's array a (x1 columns, zl planes:
 * row-major, Z last), or check_edge()'s value where a coordinate is
 * negative (the boundary outside the space). */
static inline double check_seq_at(const double *a, int64_t x1, int64_t zl, int64_t x, int64_t y,
                                  int64_t z)
{
    double v;
    int64_t c[3];
    if (x >= 0 && y >= 0 && z >= 0)
        return a[(x * x1 + y) * zl + z];
    c[0] = x;
    c[1] = y;
    c[2] = z;
    check_edge(&v, c, NULL);
    return v;
}

/* A point of a sequential loop: A[x][y][z] of a (x1 columns, zl planes)
 * from the points before it (check_seq_at()). */
typedef double (*check_point_fn)(const double *a, int64_t x1, int64_t zl, int64_t x, int64_t y,
                                 int64_t z);

/* The ADI point: the mean of the three axis neighbours, ((x-1 + y-1) + z-1) / 3. */
static inline double check_adi_point(const double *a, int64_t x1, int64_t zl, int64_t x,
                                     int64_t y, int64_t z)
{
    return ((check_seq_at(a, x1, zl, x - 1, y, z) + check_seq_at(a, x1, zl, x, y - 1, z)) +
            check_seq_at(a, x1, zl, x, y, z - 1)) / 3.0;
}

/* The sequential loop over x0 x x1 x zl (Z outermost, then X_0, then X_1),
 * each point computed by f: a new array (malloc), or NULL when there is no
 * memory. */
static inline double *check_seq_loop(int64_t x0, int64_t x1, int64_t zl, check_point_fn f)
{
    double *a = (double *)malloc(sizeof(double) * (size_t)(x0 * x1 * zl));
    int64_t x, y, z;
    for (z = 0; a != NULL && z < zl; z++)
        for (x = 0; x < x0; x++)
            for (y = 0; y < x1; y++)
                a[(x * x1 + y) * zl + z] = f(a, x1, zl, x, y, z);
    return a;
}

#ifdef TILEHYBRID_TILING_H
/* The random end-to-end tests (mpi_tiling, mpi_stencil): the boundary of an
 * N-dimensional space, the sequential loop's array, the comparison of a
 * plan's points and checksum with it, and the runs for N = 1, 2, 3. */

/* The value of any point outside an N-dimensional space (n = N; c[0..n],
 * Z last; possibly several coordinates outside, possibly above the extent
 * for a downward loop): a fixed pattern in [0, 1). */
static inline double check_edge_value(const int64_t *c, int n)
{
    int64_t s = 1000003;
    static const int64_t w[4] = { 31, 17, 7, 5 };
    int i;
    for (i = 0; i <= n; i++)
        s += w[i] * c[i];
    return (double)(((s % 97) + 97) % 97) / 97.0;
}

/* check_edge_value() as a tile_config boundary callback; ctx: the int N. */
static inline void check_edge_n(void *out, const int64_t *c, void *ctx)
{
    *(double *)out = check_edge_value(c, *(const int *)ctx);
}

/* A sequential loop's array over X_1 x ... x X_N x Z (row-major, Z last). */
typedef struct check_seq {
    int n;
    int64_t ext[4];     /* X_1..X_N, Z */
    int64_t total;      /* the number of points */
    double *a;
} check_seq;

/* Size s for cfg's space and allocate its array (s->a is NULL when there
 * is no memory).  Returns the number of points. */
static inline int64_t check_seq_init(check_seq *s, const tile_config *cfg)
{
    int i;
    for (i = 0; i < cfg->n; i++)
        s->ext[i] = cfg->extent[i];
    s->ext[cfg->n] = cfg->zlen;
    s->n = cfg->n;
    s->total = 1;
    for (i = 0; i <= s->n; i++)
        s->total *= s->ext[i];
    s->a = (double *)malloc(sizeof(double) * (size_t)s->total);
    return s->total;
}

/* The index of point c (c[0..N], Z last) in s's array, or -1 when c is
 * outside the space. */
static inline int64_t check_seq_index(const check_seq *s, const int64_t *c)
{
    int64_t idx = 0;
    int i;
    for (i = 0; i <= s->n; i++) {
        if (c[i] < 0 || c[i] >= s->ext[i])
            return -1;
        idx = idx * s->ext[i] + c[i];
    }
    return idx;
}

/* What a sequential loop reads at c + o: the point of s's array, or
 * edge(c + o, N) outside the space. */
static inline double check_seq_read(const check_seq *s, const int64_t *c, const int *o,
                                    double (*edge)(const int64_t *, int))
{
    int64_t d[4], idx;
    int i;
    for (i = 0; i <= s->n; i++)
        d[i] = c[i] + o[i];
    idx = check_seq_index(s, d);
    return idx >= 0 ? s->a[idx] : edge(d, s->n);
}

/* Collective over MPI_COMM_WORLD: every point of s this rank owns equals
 * the plan's bit for bit, the checksums agree (sum: this rank's share of
 * the plan's sum of bit patterns) and, with full storage, the ranks own
 * every point once.  ok: 0 when the case has failed already (its reason in
 * why is kept).  Returns 1, or 0 with the first fault in why. */
static inline int check_seq_compare(const tile_plan *plan, const check_seq *s, uint64_t sum,
                                    int ok, char *why, size_t whylen)
{
    int n = s->n, i, rank = 0;
    int64_t c[4], idx, cnt = 1, owned = 0, owned_all = 0;
    uint64_t ref = 0, sum_all = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (i = 0; i <= n; i++)
        cnt *= s->ext[i];
    for (idx = 0; idx < cnt; idx++) {
        int64_t r = idx;
        double got;
        for (i = n; i >= 0; i--) {
            c[i] = r % s->ext[i];
            r /= s->ext[i];
        }
        ref += tilehybrid_bits(s->a[idx]);
        if (tile_get(plan, c, &got) == TILE_OK) {
            owned++;
            if (tilehybrid_bits(got) != tilehybrid_bits(s->a[idx]) && ok) {
                ok = 0;
                snprintf(why, whylen, "rank %d: point %lld differs", rank, (long long)idx);
            }
        }
    }
    MPI_Allreduce(&sum, &sum_all, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    if (sum_all != ref && ok) {
        ok = 0;
        snprintf(why, whylen, "checksum %016llx, sequential %016llx",
                 (unsigned long long)sum_all, (unsigned long long)ref);
    }
    MPI_Allreduce(&owned, &owned_all, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    if (plan->cfg.storage == TILE_STORE_FULL && owned_all != cnt && ok) {
        ok = 0;
        snprintf(why, whylen, "owned points %lld of %lld", (long long)owned_all, (long long)cnt);
    }
    return ok;
}

/* CHECK_DEFINE_RUN(NDIM, UPDATE, READ) defines
 * static void runNDIM(tile_plan *plan, const tile_config *cfg,
 * tile_reduction *acc): one HYBRID_RUN of the point update
 * UPDATE(READ, CX) (a macro of the test that declares and computes
 * double v, reading points through READ; CX = X_1 + Z) for the arity NDIM,
 * each value stored and its bit pattern added to acc (TILE_REDUCE_SUM_U64). */
#define CHECK_DEFINE_RUN(NDIM, UPDATE, READ)                                     \
    static void run##NDIM(tile_plan *plan, const tile_config *cfg, tile_reduction *acc) \
    {                                                                            \
        int const n = NDIM;                                                      \
        HYBRID_RUN(plan, it, {                                                   \
            UPDATE(READ, tile_coord(&it, 0) + tile_coord(&it, n))                \
            TILE_AT(double, it, CHECK_ZERO##NDIM) = v;                           \
            tile_reduce_u64(&it, acc, tilehybrid_bits(v));                       \
        });                                                                      \
    }
#define CHECK_ZERO1 0, 0
#define CHECK_ZERO2 0, 0, 0
#define CHECK_ZERO3 0, 0, 0, 0

/* CHECK_DEFINE_RUNS(UPDATE, R1, R2, R3): run1, run2 and run3 as by
 * CHECK_DEFINE_RUN, and static void run_n(int n, ...) that calls runN. */
#define CHECK_DEFINE_RUNS(UPDATE, R1, R2, R3)                                    \
    CHECK_DEFINE_RUN(1, UPDATE, R1)                                              \
    CHECK_DEFINE_RUN(2, UPDATE, R2)                                              \
    CHECK_DEFINE_RUN(3, UPDATE, R3)                                              \
    static void run_n(int n, tile_plan *plan, const tile_config *cfg, tile_reduction *acc) \
    {                                                                            \
        if (n == 1)                                                              \
            run1(plan, cfg, acc);                                                \
        else if (n == 2)                                                         \
            run2(plan, cfg, acc);                                                \
        else                                                                     \
            run3(plan, cfg, acc);                                                \
    }

/* The last settings of a random case (N = cfg->n): a random grid policy
 * and storage, the in-tile order *next_order % 4 (planes, Z inner,
 * hyperplane, auto in turn; *next_order counts up), the boundary
 * check_edge_n, and in a quarter of the cases a hand-made grid: all nprocs
 * processes along one random dimension. */
static inline void check_rnd_finish(tile_config *cfg, int nprocs, int *next_order)
{
    int i;
    cfg->grid_policy = (int)check_rnd_in(0, 1);
    cfg->storage = (int)check_rnd_in(0, 1);
    cfg->order = (*next_order)++ % 4;
    cfg->boundary = check_edge_n;
    if (check_rnd_in(0, 3) == 0) {
        int d = (int)check_rnd_in(0, cfg->n - 1);
        for (i = 0; i < cfg->n; i++)
            cfg->grid[i] = i == d ? nprocs : 1;
    }
}

/* The random cases that ran, per in-tile order the plan ran
 * (check_case_plan counts them, check_every_order checks them). */
static int check_order_runs[4];

/* check_plan_create() for a random case: check_edge_n's context, the
 * case's N, is set first; a plan that is ready counts in
 * check_order_runs. */
static inline int check_case_plan(tile_plan *plan, tile_config *cfg, tile_reduction *acc,
                                  char *why, size_t whylen)
{
    static int n;
    int rc;
    n = cfg->n;
    cfg->boundary_ctx = &n;
    rc = check_plan_create(plan, cfg, acc, why, whylen);
    if (rc == 1)
        check_order_runs[plan->store.order]++;
    return rc;
}

/* One random case for N = n: gen(cfg, n), then run(n, cfg, why, whylen),
 * which returns 1 (ran and matched), 0 (failed) or -1 (refused for its
 * sizes); a refusal counts in *rejected, any other case in *cases.
 * Returns what run returned. */
static inline int check_random_case(int n, tile_config *cfg, void (*gen)(tile_config *, int),
                                    int (*run)(int, tile_config *, char *, size_t), char *why,
                                    size_t whylen, int *cases, int *rejected)
{
    int r;
    gen(cfg, n);
    r = run(n, cfg, why, whylen);
    if (r < 0)
        (*rejected)++;
    else
        (*cases)++;
    return r;
}

/* Collective: the random cases (what: "stencils", "configurations") ran
 * in every in-tile order. */
static inline void check_every_order(const char *what)
{
    check_mpi(MPI_COMM_WORLD, check_order_runs[TILE_ORDER_PLANES] > 0 &&
              check_order_runs[TILE_ORDER_Z_INNER] > 0 &&
              check_order_runs[TILE_ORDER_HYPERPLANE] > 0,
              "the random %s ran in every in-tile order, forced in turn (plane order %d, "
              "Z inner %d, hyperplane %d; TILE_ORDER_AUTO counted as what it chose)", what,
              check_order_runs[TILE_ORDER_PLANES], check_order_runs[TILE_ORDER_Z_INNER],
              check_order_runs[TILE_ORDER_HYPERPLANE]);
}

/* cfg->stencil: cfg->nstencil random vectors in the user's coordinates,
 * none all 0: component i of vector k is u * dir[i], where u = draw(k, i,
 * N) is the distance along the loop's direction (<= 0), drawn again for
 * the whole vector while every u is 0. */
static inline void check_rnd_vectors(tile_config *cfg, int (*draw)(int k, int i, int n))
{
    int i, k, n = cfg->n, nz;
    for (k = 0; k < cfg->nstencil; k++)
        do {
            nz = 0;
            for (i = 0; i <= n; i++) {
                int u = draw(k, i, n);
                cfg->stencil[k][i] = u * cfg->dir[i];
                nz |= u != 0;
            }
        } while (!nz);
}

/* The start of a random case's description, "space 7x5x9 dir +1 -1 +1",
 * into buf (len bytes).  Returns the number of characters written. */
static inline int check_describe_space(const tile_config *c, char *buf, size_t len)
{
    int i, o = 0;
    o += snprintf(buf + o, len - (size_t)o, "space ");
    for (i = 0; i < c->n; i++)
        o += snprintf(buf + o, len - (size_t)o, "%lldx", (long long)c->extent[i]);
    o += snprintf(buf + o, len - (size_t)o, "%lld dir", (long long)c->zlen);
    for (i = 0; i <= c->n; i++)
        o += snprintf(buf + o, len - (size_t)o, " %+d", c->dir[i]);
    return o;
}

/* cfg: tile_config_init(cfg, n), the extents x0 (and x1 where n > 1), zlen,
 * and the boundary check_edge_n with its context N. */
static inline void check_config(tile_config *cfg, int n, int64_t x0, int64_t x1, int64_t zlen)
{
    static int dims[4] = { 0, 1, 2, 3 };
    tile_config_init(cfg, n);
    cfg->extent[0] = x0;
    if (n > 1)
        cfg->extent[1] = x1;
    cfg->zlen = zlen;
    cfg->boundary = check_edge_n;
    cfg->boundary_ctx = &dims[n];
}
#endif

#endif
