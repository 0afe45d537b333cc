/* tests/mpi_run_checkpoint.c -- checkpoints inside a plan's run
 * (tile_checkpoint_config.plan, src/tiling/79-run-checkpoint.h).
 *
 * ADI over 9 x 7 x 161 (tile height 2: 81 tiles) with an exact sum, in
 * every model (2 threads in the hybrid ones), the processes on a line or
 * (4) a 2 x 2 grid, the Z window or the whole space stored:
 *   - a run that writes a checkpoint every 7 steps (at every rank's cut,
 *     staggered along the pipeline) ends bitwise equal to the sequential
 *     loop, with several checkpoints written;
 *   - a new plan that reads the last one (or the one before, PATH.1)
 *     resumes there and ends bitwise equal, its sum too; so does one whose
 *     configured tile height differs (the checkpoint's is used);
 *   - the signal, raised on the last rank in the middle of a run, writes a
 *     checkpoint at the next agreed cut and stops the run on every rank
 *     (TILE_ERR_CHECKPOINT, ck.stopped), and the restart from it ends
 *     bitwise equal;
 *   - a run whose body fails (a `break`) writes no checkpoint after the
 *     failure, and the restart from the one before ends bitwise equal;
 *   - the refusals: a plan that agrees on nothing, a funneled plan whose
 *     balancing changes the split, a plan that writes its tiles to an
 *     array (the run fails with the reason), a restart into a plan of
 *     other threads, another in-tile order or on another process grid.
 * Run at 1-4 processes.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200112L     /* getpid */
#endif
#include "../hybrid.h"
#include "check.h"
#include <math.h>
#include <signal.h>
#include <unistd.h>

#define X0 9
#define X1 7
#define ZL 161
#define TH 2

static int nprocs, myrank;
static char base[200];

static void config(tile_config *c, int model, int storage, int64_t height)
{
    tile_config_init(c, 2);
    c->extent[0] = X0;
    c->extent[1] = X1;
    c->zlen = ZL;
    c->tile_height = height;
    c->grid[0] = nprocs == 4 ? 2 : nprocs;
    c->grid[1] = nprocs == 4 ? 2 : 1;
    c->model = model;
    c->threads = model == TILE_MODEL_MPI ? 1 : 2;
#ifndef _OPENMP
    c->threads = 1;
#endif
    c->storage = storage;
    c->boundary = check_edge;
}

static void remove_all(const char *path)
{
    char p[300];
    remove(path);
    snprintf(p, sizeof p, "%s.1", path);
    remove(p);
    snprintf(p, sizeof p, "%s.tmp", path);
    remove(p);
}

/* The step hook: raise SIGUSR2 on the last rank after step 5 of a run
 * (when armed). */
static int raise_armed;
static long hook_steps;
static void raise_hook(const tile_plan *plan, int thread)
{
    (void)plan;
    if (thread != 0)
        return;
    if (raise_armed && myrank == nprocs - 1 && ++hook_steps == 5)
        raise(SIGUSR2);
}

/* One ADI run with an exact sum: the plan's status. */
static int run(tile_plan *p, double *sum)
{
    tile_reduction r;
    int rc;
    if (tile_reduction_init(p, &r, TILE_REDUCE_SUM, NULL) != TILE_OK)
        return -1;
    hook_steps = 0;
    HYBRID_RUN_EACH_STEP(p, raise_hook, it, {
        double v = ((TILE_AT(double, it, -1, 0, 0) + TILE_AT(double, it, 0, -1, 0)) +
                    TILE_AT(double, it, 0, 0, -1)) / 3.0;
        TILE_AT(double, it, 0, 0, 0) = v;
        tile_reduce(&it, &r, v);
    });
    rc = tile_plan_status(p);
    *sum = r.value;
    tile_reduction_drop(p, &r);
    return rc;
}

/* A checkpoint of plan p at path: every_steps, signal. */
static int ckpt_make(tile_checkpoint *ck, tile_plan *p, const char *path, int64_t every,
                     int sig)
{
    tile_checkpoint_config cc;
    tile_checkpoint_config_init(&cc, path);
    cc.plan = p;
    cc.fingerprint = 0x5eed;
    cc.every_steps = every;
    cc.signal = sig;
    return tile_checkpoint_create(ck, &cc);
}

/* The plan's points (the stored ones) and sum are the sequential loop's. */
static int same(const tile_plan *p, const double *a, double sum, double got)
{
    return check_same_3d(p, a, X0, X1, ZL) && memcmp(&sum, &got, sizeof sum) == 0;
}

/* A new plan of model m resumed from path: 1 if it ends equal. */
static int resumed(int m, int storage, int64_t height, const char *path, const double *a,
                   double sum, char *why, size_t len)
{
    tile_config c;
    tile_plan p;
    tile_checkpoint ck;
    int64_t step = -1;
    double got = 0;
    int rc, ok;
    config(&c, m, storage, height);
    if ((rc = tile_plan_create(&p, MPI_COMM_WORLD, &c)) != TILE_OK) {
        snprintf(why, len, "plan: %s", p.errmsg);
        return 0;
    }
    rc = ckpt_make(&ck, &p, path, 0, 0);
    if (rc == TILE_OK)
        rc = tile_checkpoint_read(&ck, path, &step);
    if (rc != TILE_OK)
        snprintf(why, len, "read '%s': %s", path, ck.errmsg);
    if (rc == TILE_OK && (rc = run(&p, &got)) != TILE_OK)
        snprintf(why, len, "resumed run: %s", p.errmsg);
    ok = rc == TILE_OK && same(&p, a, sum, got) && step == 0;
    if (rc == TILE_OK && !ok)
        snprintf(why, len, "rank %d: the resumed run differs (step %lld)", myrank,
                 (long long)step);
    tile_checkpoint_destroy(&ck);
    tile_plan_destroy(&p);
    return ok;
}

/* Model m: checkpoints every 7 steps, then the restarts from PATH, PATH.1
 * and with another tile height. */
static void test_every(int m, int storage, const double *a, double sum)
{
    char path[260], prev[270], why[400] = "";
    tile_config c;
    tile_plan p;
    tile_checkpoint ck;
    double got = 0;
    int rc, ok;
    int64_t written = 0;
    snprintf(path, sizeof path, "%s-every-%d-%d", base, m, storage);
    snprintf(prev, sizeof prev, "%s.1", path);
    remove_all(path);
    config(&c, m, storage, TH);
    rc = tile_plan_create(&p, MPI_COMM_WORLD, &c);
    if (rc == TILE_OK)
        rc = ckpt_make(&ck, &p, path, 7, 0);
    if (rc == TILE_OK && (rc = run(&p, &got)) != TILE_OK)
        snprintf(why, sizeof why, "run: %s", p.errmsg);
    written = ck.written;
    ok = rc == TILE_OK && same(&p, a, sum, got) && written >= 2;
    check_mpi(MPI_COMM_WORLD, ok, "%s model, %s: a run that writes a checkpoint every 7 steps "
              "(%lld written) ends bitwise equal to the sequential loop, its sum too%s%s",
              tile_model_name(m), storage == TILE_STORE_FULL ? "the whole space" : "the window",
              (long long)written, why[0] ? ": " : "", why);
    tile_checkpoint_destroy(&ck);
    tile_plan_destroy(&p);
    why[0] = '\0';
    ok = resumed(m, storage, TH, path, a, sum, why, sizeof why);
    check_mpi(MPI_COMM_WORLD, ok, "%s model: a new plan resumed from the last checkpoint ends "
              "bitwise equal%s%s", tile_model_name(m), why[0] ? ": " : "", why);
    why[0] = '\0';
    ok = resumed(m, storage, TH, prev, a, sum, why, sizeof why);
    check_mpi(MPI_COMM_WORLD, ok, "%s model: ... and from the one before (PATH.1)%s%s",
              tile_model_name(m), why[0] ? ": " : "", why);
    why[0] = '\0';
    ok = resumed(m, storage, 5, path, a, sum, why, sizeof why);
    check_mpi(MPI_COMM_WORLD, ok, "%s model: ... and a plan configured with tile height 5 "
              "(the checkpoint's 2 is used)%s%s", tile_model_name(m), why[0] ? ": " : "", why);
    remove_all(path);
}

/* Model m: the signal on the last rank writes and stops; the restart. */
static void test_signal(int m, const double *a, double sum)
{
    char path[260], why[400] = "";
    tile_config c;
    tile_plan p;
    tile_checkpoint ck;
    double got = 0;
    int rc, ok, stopped, all = 0;
    snprintf(path, sizeof path, "%s-signal-%d", base, m);
    remove_all(path);
    config(&c, m, TILE_STORE_FULL, TH);
    rc = tile_plan_create(&p, MPI_COMM_WORLD, &c);
    if (rc == TILE_OK)
        rc = ckpt_make(&ck, &p, path, 3, SIGUSR2);   /* (no checkpoint after the stop) */
    raise_armed = 1;
    if (rc == TILE_OK)
        rc = run(&p, &got);
    raise_armed = 0;
    stopped = ck.stopped;
    MPI_Allreduce(&stopped, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    ok = rc == TILE_ERR_CHECKPOINT && all == 1 && ck.written >= 1 &&
         strstr(p.errmsg, "stopped after its checkpoint") != NULL;
    if (!ok)
        snprintf(why, sizeof why, "rank %d: status %d, stopped %d, written %lld: %s", myrank,
                 rc, stopped, (long long)ck.written, p.errmsg);
    check_mpi(MPI_COMM_WORLD, ok, "%s model: SIGUSR2 raised on the last rank at its step 5: "
              "one checkpoint at an agreed cut, then every rank stops (TILE_ERR_CHECKPOINT, "
              "ck.stopped)%s%s", tile_model_name(m), why[0] ? ": " : "", why);
    tile_checkpoint_destroy(&ck);
    tile_plan_destroy(&p);
    why[0] = '\0';
    ok = resumed(m, TILE_STORE_FULL, TH, path, a, sum, why, sizeof why);
    check_mpi(MPI_COMM_WORLD, ok, "%s model: the restart from the signal's checkpoint ends "
              "bitwise equal%s%s", tile_model_name(m), why[0] ? ": " : "", why);
    remove_all(path);
}

/* A run whose body breaks out at one point of plane 100 (TILE_ERR_BODY):
 * the cuts after it write nothing, and a restart from the file (the
 * checkpoint before) with the right body ends bitwise equal. */
static void test_failed(const double *a, double sum)
{
    char path[260], why[400] = "";
    tile_config c;
    tile_plan p;
    tile_checkpoint ck;
    tile_reduction r;
    int rc, ok;
    int64_t written;
    snprintf(path, sizeof path, "%s-failed", base);
    remove_all(path);
    config(&c, TILE_MODEL_MPI, TILE_STORE_FULL, TH);
    rc = tile_plan_create(&p, MPI_COMM_WORLD, &c);
    if (rc == TILE_OK)
        rc = ckpt_make(&ck, &p, path, 7, 0);
    if (rc == TILE_OK && (rc = tile_reduction_init(&p, &r, TILE_REDUCE_SUM, NULL)) == TILE_OK) {
        HYBRID_RUN(&p, it, {   /* (run()'s body, and its reduction: the state must fit) */
            double v;
            if (tile_coord(&it, 0) == 0 && tile_coord(&it, 1) == 0 && tile_coord(&it, 2) == 100)
                break;
            v = ((TILE_AT(double, it, -1, 0, 0) + TILE_AT(double, it, 0, -1, 0)) +
                 TILE_AT(double, it, 0, 0, -1)) / 3.0;
            TILE_AT(double, it, 0, 0, 0) = v;
            tile_reduce(&it, &r, v);
        });
        rc = tile_plan_status(&p);
        tile_reduction_drop(&p, &r);
    }
    written = ck.written;
    check_mpi(MPI_COMM_WORLD, rc == TILE_ERR_BODY && written >= 1 && written <= 100 / TH / 7 + 1,
              "a run whose body breaks out at plane 100 fails (TILE_ERR_BODY: %d) and its cuts "
              "after the failure write nothing (%lld written, the last before plane 100)", rc,
              (long long)written);
    tile_checkpoint_destroy(&ck);
    tile_plan_destroy(&p);
    ok = resumed(TILE_MODEL_MPI, TILE_STORE_FULL, TH, path, a, sum, why, sizeof why);
    check_mpi(MPI_COMM_WORLD, ok, "... and the restart from its last checkpoint, with the body "
              "that does not break, ends bitwise equal%s%s", why[0] ? ": " : "", why);
    remove_all(path);
}

/* The refusals at the checkpoint's creation and at a run's first cut. */
static void test_refusals(void)
{
    char path[260];
    tile_config c;
    tile_plan p;
    tile_checkpoint ck;
    double got = 0, *arr = NULL;
    tile_box box;
    int rc;
    snprintf(path, sizeof path, "%s-refused", base);
    memset(&box, 0, sizeof box);
    remove_all(path);
    config(&c, TILE_MODEL_MPI, TILE_STORE_FULL, TH);
    c.agree = TILE_AGREE_WHEN_ASKED;
    tile_plan_create(&p, MPI_COMM_WORLD, &c);
    rc = ckpt_make(&ck, &p, path, 7, 0);
    check_mpi(MPI_COMM_WORLD, rc == TILE_ERR_ARG && strstr(ck.errmsg, "agrees on nothing"),
              "a plan with cfg.agree = TILE_AGREE_WHEN_ASKED: refused (%s)", ck.errmsg);
    tile_checkpoint_destroy(&ck);
    tile_plan_destroy(&p);
#ifdef _OPENMP
    config(&c, TILE_MODEL_FUNNELED, TILE_STORE_FULL, TH);
    c.balance.policy = BAL_POLICY_CONSTANT;
    tile_plan_create(&p, MPI_COMM_WORLD, &c);
    rc = ckpt_make(&ck, &p, path, 7, 0);
    check_mpi(MPI_COMM_WORLD, rc == TILE_ERR_ARG && strstr(ck.errmsg, "BAL_POLICY_FIXED"),
              "a funneled plan balanced by BAL_POLICY_CONSTANT: refused (%s)", ck.errmsg);
    tile_checkpoint_destroy(&ck);
    tile_plan_destroy(&p);
#endif
    /* the tiles written to an array: a restart could not give them back */
    config(&c, TILE_MODEL_MPI, TILE_STORE_FULL, TH);
    tile_plan_create(&p, MPI_COMM_WORLD, &c);
    tile_input_box(&p, TILE_ALL_TILES, NULL, &box, NULL);
    arr = (double *)calloc((size_t)tile_box_points(&box) + 1, sizeof(double));
    tile_output_to(&p, &box, arr, NULL);
    rc = ckpt_make(&ck, &p, path, 7, 0);
    if (rc == TILE_OK)
        rc = run(&p, &got);
    check_mpi(MPI_COMM_WORLD, rc == TILE_ERR_CHECKPOINT && strstr(p.errmsg, "tile_output_to"),
              "a plan that writes its tiles to an array: the run fails at its first checkpoint "
              "with the reason (%s)", p.errmsg);
    tile_checkpoint_destroy(&ck);
    tile_plan_destroy(&p);
    free(arr);
    remove_all(path);
}

/* A run of configuration *w checkpointed, then read into a plan of *r:
 * the run's status and the plan's message (msg). */
static int misfit(const tile_config *w, const tile_config *r, char *msg, size_t len)
{
    char path[260];
    tile_plan p;
    tile_checkpoint ck;
    double got = 0;
    int rc;
    snprintf(path, sizeof path, "%s-misfit", base);
    remove_all(path);
    tile_plan_create(&p, MPI_COMM_WORLD, w);
    rc = ckpt_make(&ck, &p, path, 7, 0);
    if (rc == TILE_OK)
        rc = run(&p, &got);
    tile_checkpoint_destroy(&ck);
    tile_plan_destroy(&p);
    tile_plan_create(&p, MPI_COMM_WORLD, r);
    if (rc == TILE_OK && (rc = ckpt_make(&ck, &p, path, 0, 0)) == TILE_OK &&
        (rc = tile_checkpoint_read(&ck, path, NULL)) == TILE_OK)
        rc = run(&p, &got);
    snprintf(msg, len, "%s", p.errmsg);
    tile_checkpoint_destroy(&ck);
    tile_plan_destroy(&p);
    remove_all(path);
    return rc;
}

/* Restarts into a plan the state does not fit: the run does not start,
 * and says what differs. */
static void test_misfits(void)
{
    tile_config w, r;
    char msg[400];
    int rc;
#ifdef _OPENMP
    config(&w, TILE_MODEL_FINE, TILE_STORE_FULL, TH);
    w.threads = 1;
    r = w;
    r.threads = 2;
    rc = misfit(&w, &r, msg, sizeof msg);
    check_mpi(MPI_COMM_WORLD, rc == TILE_ERR_CHECKPOINT && strstr(msg, "does not fit"),
              "a checkpoint of a 1-thread run read into a plan of 2 threads: the run does "
              "not start, and says why (%s)", msg);
#endif
    config(&w, TILE_MODEL_MPI, TILE_STORE_FULL, TH);
    w.order = TILE_ORDER_PLANES;
    r = w;
    r.order = TILE_ORDER_Z_INNER;
    rc = misfit(&w, &r, msg, sizeof msg);
    check_mpi(MPI_COMM_WORLD, rc == TILE_ERR_CHECKPOINT && strstr(msg, "layout"),
              "a checkpoint of a run in the plane order read into a plan of the Z-inner "
              "order (another layout of the same size): the run does not start, and says "
              "why (%s)", msg);
    config(&w, TILE_MODEL_MPI, TILE_STORE_FULL, TH);
    w.grid[0] = nprocs;
    w.grid[1] = 1;
    r = w;
    r.grid[0] = 1;
    r.grid[1] = nprocs;
    rc = misfit(&w, &r, msg, sizeof msg);
    if (nprocs > 1)
        check_mpi(MPI_COMM_WORLD, rc == TILE_ERR_CHECKPOINT && strstr(msg, "block"),
                  "a checkpoint of a run on a %d x 1 grid read into a plan on 1 x %d: the run "
                  "does not start, and says why (%s)", nprocs, nprocs, msg);
    else
        check_mpi(MPI_COMM_WORLD, rc == TILE_OK, "one process: the same grid, the restart "
                  "runs (%s)", msg);
}

int main(int argc, char **argv)
{
    double sum = 0, *a;
    tile_xsum s;
    long id = 0;
    int64_t i;
    int m;
    if (!check_hybrid_init(&argc, &argv, 2, &myrank, &nprocs))
        return 1;
    if (myrank == 0)    /* a name of its own on a shared /tmp */
        id = (long)getpid();    /* (not MPI_Wtime: Open MPI's starts near 0 at MPI_Init,
                                 * and two runs at once shared a name and its file) */
    MPI_Bcast(&id, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    snprintf(base, sizeof base, "%s/tilehybrid-runckpt-%ld", getenv("TMPDIR") != NULL ?
             getenv("TMPDIR") : "/tmp", id);
    a = check_seq_loop(X0, X1, ZL, check_adi_point);
    tile_xsum_init(&s);
    for (i = 0; a != NULL && i < X0 * X1 * ZL; i++)
        tile_xsum_add(&s, a[i]);
    sum = tile_xsum_round(&s);
    for (m = TILE_MODEL_MPI; a != NULL && m <= TILE_MODEL_MULTIPLE; m++) {
        test_every(m, TILE_STORE_FULL, a, sum);
        test_signal(m, a, sum);
    }
    test_every(TILE_MODEL_FUNNELED, TILE_STORE_WINDOW, a, sum);
    test_failed(a, sum);
    test_refusals();
    test_misfits();
    free(a);
    return check_mpi_exit();
}
