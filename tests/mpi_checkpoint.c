/* tests/mpi_checkpoint.c -- checkpoints (78-checkpoint.h): fields, a step
 * and the program's bytes written with MPI-IO and read back bitwise, at
 * random odd shapes, grids and ghost widths, doubles and 24-byte structs;
 * PATH.1 keeps the one before and no PATH.tmp stays; every refusal (another
 * fingerprint, process count or field shape, a truncated file, a damaged
 * header or block, not a checkpoint, no file, bad arguments, ranks that
 * differ) on every rank with its reason; and tile_checkpoint_due(): every
 * K steps with no message, every S seconds of an injected clock and on a
 * signal one boundary after one rank saw them, on every rank alike, once.
 * Run at 1-4 processes.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200112L     /* getpid */
#endif
#include "../tiling.h"
#include "check.h"

#include <math.h>
#include <signal.h>
#include <unistd.h>

static int nprocs, myrank;
static char base[200];

typedef struct trio {
    double a, b, c;
} trio;

/* The value of element c of field k, version v (a function of the point). */
static double value(int k, int v, const int64_t *c, int d)
{
    double x = 0.1 * k + 0.01 * v;
    int i;
    for (i = 0; i < d; i++)
        x = x * 1.25 + (double)c[i] * (i + 1);
    return x;
}

typedef struct fill_ctx {
    int k, v, d;
    size_t esz;
} fill_ctx;

static void fill(void *ctx, const int64_t *c, void *elem)
{
    const fill_ctx *f = (const fill_ctx *)ctx;
    double x = value(f->k, f->v, c, f->d);
    if (f->esz == sizeof(trio)) {
        trio t;
        t.a = x;
        t.b = -x;
        t.c = x * 3.0;
        memcpy(elem, &t, sizeof t);
    } else {
        memcpy(elem, &x, sizeof x);
    }
}

static void fill_sentinel(void *ctx, const int64_t *c, void *elem)
{
    (void)c;
    memset(elem, 0x5a, ((const fill_ctx *)ctx)->esz);
}

/* 1 if every element this rank keeps is version v's (the block) and, with
 * ghost_sentinel, every ghost still the sentinel. */
static int same_as(tile_field *f, int k, int v, int ghost_sentinel)
{
    unsigned char *want = (unsigned char *)malloc(f->elem_size);
    int64_t c[TILE_MAX_DIMS + 1], x[TILE_MAX_DIMS + 1] = {0}, e;
    fill_ctx fc;
    int i, ok = want != NULL;
    fc.k = k;
    fc.v = v;
    fc.d = f->ndims;
    fc.esz = f->elem_size;
    for (e = 0; ok && e < f->elems; e++) {
        int inside = 1;
        for (i = 0; i < f->ndims; i++) {
            c[i] = f->lo[i] - f->ghost[i] + x[i];
            inside &= x[i] >= f->ghost[i] && x[i] < f->ghost[i] + f->len[i];
        }
        if (inside)
            fill(&fc, c, want);
        else
            fill_sentinel(&fc, c, want);
        if (inside || ghost_sentinel)
            ok = memcmp(want, f->data + (size_t)e * f->elem_size, f->elem_size) == 0;
        for (i = f->ndims - 1; i >= 0 && ++x[i] == f->alen[i]; i--)
            x[i] = 0;
    }
    free(want);
    return ok;
}

static void set_version(tile_field *f, int k, int v)
{
    fill_ctx fc;
    fc.k = k;
    fc.v = v;
    fc.d = f->ndims;
    fc.esz = f->elem_size;
    tile_field_fill(f, fill_sentinel, &fc, 1);
    tile_field_fill(f, fill, &fc, 0);
}

/* Two random fields over comm: k = 0 doubles, 3-D; k = 1 trios, 2-D. */
static int make_fields(tile_field *f, MPI_Comm comm, int64_t seed_shape)
{
    int k, i;
    check_rng_seed((uint64_t)seed_shape);
    for (k = 0; k < 2; k++) {
        tile_field_config fc;
        tile_field_config_init(&fc, k == 0 ? 3 : 2);
        fc.elem_size = k == 0 ? sizeof(double) : sizeof(trio);
        for (i = 0; i < fc.ndims; i++) {
            fc.extent[i] = 2 * check_rnd_in(2, 9) + 1;
            fc.ghost[i] = check_rnd_in(0, 2);
        }
        if (tile_field_create(&f[k], comm, &fc) != TILE_OK)
            return 0;
    }
    return 1;
}

static void config(tile_checkpoint_config *c, const char *path, tile_field *f, void *user,
                   size_t ub)
{
    tile_checkpoint_config_init(c, path);
    c->fields[0] = &f[0];
    c->fields[1] = &f[1];
    c->nfields = 2;
    c->user = user;
    c->user_bytes = ub;
    c->fingerprint = 0x1234abcdull;
}

static void remove_all(const char *path)
{
    char p[260];
    if (myrank != 0)
        return;
    remove(path);
    snprintf(p, sizeof p, "%s.1", path);
    remove(p);
    snprintf(p, sizeof p, "%s.tmp", path);
    remove(p);
}

static int exists(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f != NULL)
        fclose(f);
    return f != NULL;
}

/* Write versions 1, 2, 3 at steps 10, 20, 30; read PATH and PATH.1 back. */
static void test_round_trip(void)
{
    tile_field f[2];
    tile_checkpoint ck;
    tile_checkpoint_config c;
    char path[260], prev[270], tmp[270];
    double user[7], back[7];
    int64_t step = -1, step1 = -1;
    int v, k, i, wrote = 1, ok, ok1, rc;
    snprintf(path, sizeof path, "%s-round", base);
    snprintf(prev, sizeof prev, "%s.1", path);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    if (!check_mpi(MPI_COMM_WORLD, make_fields(f, MPI_COMM_WORLD, 77), "two fields made"))
        return;
    config(&c, path, f, user, sizeof user);
    rc = tile_checkpoint_create(&ck, &c);
    check_mpi(MPI_COMM_WORLD, rc == TILE_OK, "tile_checkpoint_create: %s", ck.errmsg);
    for (v = 1; v <= 3; v++) {
        for (k = 0; k < 2; k++)
            set_version(&f[k], k, v);
        for (i = 0; i < 7; i++)
            user[i] = v * 100.0 + i;
        wrote &= tile_checkpoint_write(&ck, 10 * v) == TILE_OK;
    }
    check_mpi(MPI_COMM_WORLD, wrote && ck.written == 3, "three checkpoints written: %s",
              ck.errmsg);
    for (k = 0; k < 2; k++)
        set_version(&f[k], k, 9);
    memset(user, 0, sizeof user);
    rc = tile_checkpoint_read(&ck, NULL, &step);
    memcpy(back, user, sizeof user);
    ok = rc == TILE_OK && step == 30 && same_as(&f[0], 0, 3, 1) && same_as(&f[1], 1, 3, 1) &&
         back[0] == 300.0 && back[6] == 306.0;
    rc = tile_checkpoint_read(&ck, prev, &step1);
    ok1 = rc == TILE_OK && step1 == 20 && same_as(&f[0], 0, 2, 1) && same_as(&f[1], 1, 2, 1) &&
          user[3] == 203.0;
    check_mpi(MPI_COMM_WORLD, ok && ok1,
              "grids %dx%dx%d and %dx%d: PATH read back bitwise (step 30, the user's bytes, "
              "ghost layers untouched), PATH.1 the one before (step %lld) %s",
              f[0].pdims[0], f[0].pdims[1], f[0].pdims[2], f[1].pdims[0], f[1].pdims[1],
              (long long)step1, ck.errmsg);
    check_mpi(MPI_COMM_WORLD, !exists(tmp), "no PATH.tmp left after the writes");
    tile_checkpoint_destroy(&ck);
    rc = tile_checkpoint_write(&ck, 40);
    check_mpi(MPI_COMM_WORLD, rc == TILE_ERR_ARG, "a destroyed checkpoint refuses to write");
    for (k = 0; k < 2; k++)
        tile_field_destroy(&f[k]);
    remove_all(path);
}

/* Rank 0 rewrites path: its first keep bytes, or with a byte at `at`
 * flipped (keep < 0). */
static void damage(const char *path, long keep, long at)
{
    FILE *f;
    long n;
    unsigned char *buf;
    if (myrank == 0 && (f = fopen(path, "rb")) != NULL) {
        fseek(f, 0, SEEK_END);
        n = ftell(f);
        fseek(f, 0, SEEK_SET);
        buf = (unsigned char *)malloc((size_t)n);
        if (buf != NULL && fread(buf, 1, (size_t)n, f) == (size_t)n) {
            fclose(f);
            if (keep < 0 && at < n)
                buf[at] ^= 0x10;
            f = fopen(path, "wb");
            fwrite(buf, 1, keep >= 0 ? (size_t)keep : (size_t)n, f);
        }
        fclose(f);
        free(buf);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Read path into a checkpoint of fields f: refused with want in errmsg. */
static void refused(tile_checkpoint *ck, const char *path, int code, const char *want,
                    const char *what)
{
    int64_t step = -7;
    int rc = tile_checkpoint_read(ck, path, &step);
    check_mpi(MPI_COMM_WORLD, rc == code && strstr(ck->errmsg, want) != NULL && step == -7,
              "%s: refused on every rank (%s)", what, ck->errmsg);
}

/* The file's refusals: damaged, truncated, not one, none, another
 * fingerprint or field shape. */
static void test_refusals(void)
{
    tile_field f[2], g[2];
    tile_checkpoint ck, other;
    tile_checkpoint_config c;
    char path[260], text[270];
    double user[2] = { 1.0, 2.0 };
    int k;
    long hb = 4096;
    snprintf(path, sizeof path, "%s-ref", base);
    snprintf(text, sizeof text, "%s-text", base);
    make_fields(f, MPI_COMM_WORLD, 91);
    for (k = 0; k < 2; k++)
        set_version(&f[k], k, 1);
    config(&c, path, f, user, sizeof user);
    tile_checkpoint_create(&ck, &c);
    tile_checkpoint_write(&ck, 5);
    damage(path, -1, hb + 8 * 3 + 1);           /* a byte of the first field's data */
    refused(&ck, path, TILE_ERR_CHECKPOINT, "does not match its checksum", "a damaged block");
    tile_checkpoint_write(&ck, 5);
    damage(path, -1, 8 * 20 + 3);               /* a byte of the fields' table */
    refused(&ck, path, TILE_ERR_CHECKPOINT, "header is damaged", "a damaged header");
    tile_checkpoint_write(&ck, 5);
    damage(path, hb + 17, 0);
    refused(&ck, path, TILE_ERR_CHECKPOINT, "truncated", "a truncated file");
    tile_checkpoint_write(&ck, 5);
    damage(path, 2000, 0);
    refused(&ck, path, TILE_ERR_CHECKPOINT, "not a tilehybrid checkpoint", "a file cut in "
            "its header");
    if (myrank == 0) {
        FILE *t = fopen(text, "w");
        int i;
        for (i = 0; i < 600; i++)
            fputs("not a checkpoint ", t);
        fclose(t);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    refused(&ck, text, TILE_ERR_CHECKPOINT, "no TILECKPT", "a text file");
    refused(&ck, "/nonexistent-dir/x", TILE_ERR_MPI, "MPI_File_open", "no such file");
    tile_checkpoint_write(&ck, 5);
    c.fingerprint ^= 1;
    tile_checkpoint_create(&other, &c);
    refused(&other, path, TILE_ERR_CHECKPOINT, "another configuration", "another fingerprint");
    tile_checkpoint_destroy(&other);
    make_fields(g, MPI_COMM_WORLD, 92);
    config(&c, path, g, user, sizeof user);
    tile_checkpoint_create(&other, &c);
    refused(&other, path, TILE_ERR_CHECKPOINT, "another shape", "fields of another shape");
    tile_checkpoint_destroy(&other);
    config(&c, path, f, user, 1);
    tile_checkpoint_create(&other, &c);
    refused(&other, path, TILE_ERR_CHECKPOINT, "bytes of the program's", "other user_bytes");
    tile_checkpoint_destroy(&other);
    tile_checkpoint_destroy(&ck);
    for (k = 0; k < 2; k++) {
        tile_field_destroy(&f[k]);
        tile_field_destroy(&g[k]);
    }
    remove_all(path);
    if (myrank == 0)
        remove(text);
}

/* Written by nprocs - 1 processes, read by nprocs. */
static void test_other_count(void)
{
    tile_field f[2], g[2];
    tile_checkpoint ck;
    tile_checkpoint_config c;
    MPI_Comm sub;
    char path[260];
    int k, in = myrank < nprocs - 1;
    if (nprocs < 2) {
        check_skip("one process", "a checkpoint of another process count is refused");
        return;
    }
    snprintf(path, sizeof path, "%s-count", base);
    MPI_Comm_split(MPI_COMM_WORLD, in ? 0 : MPI_UNDEFINED, myrank, &sub);
    if (in) {
        make_fields(f, sub, 93);
        config(&c, path, f, NULL, 0);
        tile_checkpoint_create(&ck, &c);
        tile_checkpoint_write(&ck, 3);
        tile_checkpoint_destroy(&ck);
        for (k = 0; k < 2; k++)
            tile_field_destroy(&f[k]);
        MPI_Comm_free(&sub);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    make_fields(g, MPI_COMM_WORLD, 93);
    config(&c, path, g, NULL, 0);
    tile_checkpoint_create(&ck, &c);
    refused(&ck, path, TILE_ERR_CHECKPOINT, "processes, this run has", "another process count");
    tile_checkpoint_destroy(&ck);
    for (k = 0; k < 2; k++)
        tile_field_destroy(&g[k]);
    remove_all(path);
}

/* A program whose state is a few numbers: no field, its bytes alone
 * (rank 0's), written and read back on every rank. */
static void test_user_only(void)
{
    tile_checkpoint_config c;
    tile_checkpoint ck;
    char path[260];
    double user[3] = { 0.0, 0.0, 0.0 };
    int64_t step = -1;
    int rc, ok;
    snprintf(path, sizeof path, "%s-user", base);
    remove_all(path);
    tile_checkpoint_config_init(&c, path);
    c.user = user;
    c.user_bytes = sizeof user;
    c.fingerprint = 77;
    user[0] = myrank == 0 ? -1.5 : 99.0;    /* rank 0's are saved */
    user[1] = 1e300;
    user[2] = 0.1;
    rc = tile_checkpoint_create(&ck, &c);
    if (rc == TILE_OK)
        rc = tile_checkpoint_write(&ck, 12);
    user[0] = user[1] = user[2] = 0.0;
    if (rc == TILE_OK)
        rc = tile_checkpoint_read(&ck, NULL, &step);
    ok = rc == TILE_OK && step == 12 && user[0] == -1.5 && user[1] == 1e300 && user[2] == 0.1;
    check_mpi(MPI_COMM_WORLD, ok, "no field, 24 bytes of the program's: written at step 12 and "
              "read back on every rank, rank 0's (%s)", ck.errmsg);
    tile_checkpoint_destroy(&ck);
    remove_all(path);
}

/* tile_checkpoint_create()'s refusals, the same on every rank. */
static void test_create_refusals(void)
{
    tile_field f[2];
    tile_checkpoint ck;
    tile_checkpoint_config c;
    char path[260];
    int rc, k;
    snprintf(path, sizeof path, "%s-create", base);
    make_fields(f, MPI_COMM_WORLD, 94);
    config(&c, path, f, NULL, 0);
    c.nfields = 0;
    rc = tile_checkpoint_create(&ck, &c);
    check_mpi(MPI_COMM_WORLD, rc == TILE_ERR_RANGE && strstr(ck.errmsg, "nfields") != NULL,
              "nfields 0 refused (%s)", ck.errmsg);
    config(&c, path, f, NULL, 8);
    rc = tile_checkpoint_create(&ck, &c);
    check_mpi(MPI_COMM_WORLD, rc == TILE_ERR_NULL && strstr(ck.errmsg, "user") != NULL,
              "user NULL with user_bytes 8 refused (%s)", ck.errmsg);
    config(&c, path, f, NULL, 0);
    c.every_seconds = -1.0;
    rc = tile_checkpoint_create(&ck, &c);
    check_mpi(MPI_COMM_WORLD, rc == TILE_ERR_RANGE && strstr(ck.errmsg, "every_seconds"),
              "every_seconds -1 refused (%s)", ck.errmsg);
    config(&c, path, f, NULL, 0);
    c.fingerprint += myrank == nprocs - 1 && nprocs > 1;
    rc = tile_checkpoint_create(&ck, &c);
    check_mpi(MPI_COMM_WORLD, nprocs == 1 ? rc == TILE_OK
              : rc == TILE_ERR_MISMATCH && strstr(ck.errmsg, "fingerprint differs") != NULL,
              "a fingerprint that differs between ranks refused on every rank (%s)",
              ck.errmsg);
    tile_checkpoint_destroy(&ck);
    config(&c, path, f, NULL, 0);
    c.fields[1] = myrank == 0 ? NULL : &f[1];
    rc = tile_checkpoint_create(&ck, &c);
    check_mpi(MPI_COMM_WORLD, rc == TILE_ERR_NULL && strstr(ck.errmsg, "fields[1] is NULL"),
              "a NULL field on rank 0 refused on every rank (%s)", ck.errmsg);
    for (k = 0; k < 2; k++)
        tile_field_destroy(&f[k]);
}

static double fake_now;
static double fake_clock(void)
{
    return fake_now;
}

/* tile_checkpoint_due() over 12 boundaries: *w[s] its answer at step s
 * (written when it says so); the seconds' clock jumps by 100 on the last
 * rank after step 4, the signal is raised there after step 8. */
static void due_run(tile_checkpoint_config *c, int *w)
{
    tile_checkpoint ck;
    int64_t s;
    fake_now = 0.0;
    tile_checkpoint_create(&ck, c);
    for (s = 1; s <= 12; s++) {
        w[s] = tile_checkpoint_due(&ck, s);
        if (w[s] & TILE_CKPT_WRITE)
            tile_checkpoint_write(&ck, s);
        if (s == 4 && myrank == nprocs - 1)
            fake_now += 100.0;
        if (s == 8 && myrank == nprocs - 1 && c->signal > 0)
            raise(c->signal);
    }
    tile_checkpoint_destroy(&ck);
}

static void test_due(void)
{
    tile_field f[2];
    tile_checkpoint_config c;
    char path[260];
    int w[13], s, k, ok = 1;
    snprintf(path, sizeof path, "%s-due", base);
    make_fields(f, MPI_COMM_WORLD, 95);
    config(&c, path, f, NULL, 0);
    c.every_steps = 5;
    due_run(&c, w);
    for (s = 1; s <= 12; s++)
        ok &= w[s] == (s % 5 == 0 ? TILE_CKPT_WRITE : 0);
    check_mpi(MPI_COMM_WORLD, ok, "every_steps 5: a checkpoint at steps 5 and 10 only");
    config(&c, path, f, NULL, 0);
    c.every_seconds = 50.0;
    c.clock = fake_clock;
    c.signal = SIGUSR2;
    due_run(&c, w);
    for (ok = 1, s = 1; s <= 12; s++)
        ok &= w[s] == (s == 6 ? TILE_CKPT_WRITE : s == 10 ? TILE_CKPT_WRITE | TILE_CKPT_STOP : 0);
    check_mpi(MPI_COMM_WORLD, ok, "every_seconds 50, the last rank's clock 100 s on after "
              "step 4: a checkpoint at step 6 on every rank, once; SIGUSR2 there after step "
              "8: write and stop at step 10 on every rank");
    for (k = 0; k < 2; k++)
        tile_field_destroy(&f[k]);
    remove_all(path);
}

int main(int argc, char **argv)
{
    long id = 0;
    check_mpi_init(&argc, &argv, &myrank, &nprocs);
    if (myrank == 0)    /* a name of its own on a shared /tmp */
        id = (long)getpid();    /* (not MPI_Wtime: Open MPI's starts near 0 at MPI_Init,
                                 * and two runs at once shared a name and its file) */
    MPI_Bcast(&id, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    snprintf(base, sizeof base, "%s/tilehybrid-ckpt-%ld", getenv("TMPDIR") != NULL ?
             getenv("TMPDIR") : "/tmp", id);
    test_round_trip();
    test_refusals();
    test_other_count();
    test_create_refusals();
    test_user_only();
    test_due();
    return check_mpi_exit();
}
