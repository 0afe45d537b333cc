/* demos/checkpoint.h -- the demos' checkpoint options over tiling.h's
 * checkpoints (78-checkpoint.h); a helper for the demos, not an installed
 * header.
 *
 *   --checkpoint PATH        write checkpoints to PATH (the one before is
 *                            kept as PATH.1); SIGUSR1 on any rank (Slurm's
 *                            --signal=USR1@60) writes one and stops the run
 *                            with exit status 75 (TILE_CKPT_EXIT)
 *   --checkpoint-every E     when: Ns or N (seconds, agreed across ranks)
 *                            or Nsteps (default 600s)
 *   --restart PATH           resume from PATH (PATH.1 when PATH is refused,
 *                            saying why); the same options, the same
 *                            process count
 *
 * A demo parses them with demo_ckpt_option(), makes its fields and then
 * calls demo_ckpt_begin() (which resumes), demo_ckpt_step() at every step
 * boundary, and demo_ckpt_end().  A demo that is one long run of a plan
 * (demos/adi, demos/de) calls demo_ckpt_begin_plan(): the run checkpoints
 * inside (tiling.h's 79-run-checkpoint.h), its steps counted by
 * --checkpoint-every Nsteps; after a stop on the signal ck.stopped is set.
 */
#ifndef TILEHYBRID_DEMOS_CHECKPOINT_H
#define TILEHYBRID_DEMOS_CHECKPOINT_H

#include "../tiling.h"
#include "agree.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

/* The options, as given. */
typedef struct demo_ckpt_opts {
    const char *path, *restart;
    int64_t every_steps;
    double every_seconds;
} demo_ckpt_opts;

/* The names of the valued options (for opt_spec.valued). */
#define DEMO_CKPT_OPTIONS "--checkpoint", "--checkpoint-every", "--restart"

/* The help's lines. */
#define DEMO_CKPT_HELP                                                                   \
    "  --checkpoint PATH  write checkpoints to PATH (the one before: PATH.1); SIGUSR1\n"  \
    "                     writes one and stops with exit status 75\n"                     \
    "  --checkpoint-every E  Ns (seconds, the default 600s) or Nsteps\n"                  \
    "  --restart PATH     resume from PATH (or PATH.1): the same options and process\n"   \
    "                     count; ends bitwise as the run that was not stopped\n"

/* Option name with value v: 0 read, 2 bad (err says why), -1 not one of
 * these. */
static inline int demo_ckpt_option(demo_ckpt_opts *o, const char *name, const char *v,
                                   char *err, size_t len)
{
    if (strcmp(name, "--checkpoint") == 0 || strcmp(name, "--restart") == 0) {
        if (v[0] == '\0' || strlen(v) > 900)
            return demo_msg(err, len, "%s: expected a file name of 1 to 900 bytes", name);
        *(strcmp(name, "--restart") == 0 ? &o->restart : &o->path) = v;
        return 0;
    }
    if (strcmp(name, "--checkpoint-every") != 0)
        return -1;
    {
        char num[32];
        size_t l = strlen(v), s = l >= 5 && strcmp(v + l - 5, "steps") == 0 ? 5 : 0;
        if (s == 0 && l >= 1 && v[l - 1] == 's')
            l--;
        if (l - s == 0 || l - s >= sizeof num)
            return demo_msg(err, len, "--checkpoint-every '%s': expected Ns, N or Nsteps", v);
        memcpy(num, v, l - s);
        num[l - s] = '\0';
        o->every_steps = o->every_seconds = 0;
        if (s > 0 && tilehybrid_parse_i64(num, 1, 1000000000, &o->every_steps) == TILEHYBRID_OK)
            return 0;
        if (s == 0 && tilehybrid_parse_double(num, 1e-3, 1e9, &o->every_seconds) == TILEHYBRID_OK)
            return 0;
        return demo_msg(err, len, "--checkpoint-every '%s': expected Ns or N (seconds, "
                        "0.001 to 1e9) or Nsteps (N >= 1)", v);
    }
}

/* After parsing: --checkpoint-every needs --checkpoint.  0, or 2 (err). */
static inline int demo_ckpt_check(const demo_ckpt_opts *o, char *err, size_t len)
{
    if (o->path == NULL && (o->every_steps > 0 || o->every_seconds > 0))
        return demo_msg(err, len, "--checkpoint-every needs %s (where to write them)",
                        "--checkpoint PATH");
    return 0;
}

/* The demo's checkpoints: what demo_ckpt_begin() made.  agree(actx), when
 * set, is called on every rank before each checkpoint: the steps' verdict
 * (a map's or a plan's failure found so far), 0 or 1 with *msg set, so
 * that no checkpoint holds a failed step. */
typedef struct demo_ckpt {
    tile_checkpoint ck;
    int on;                 /* writing checkpoints (--checkpoint) */
    int made;
    int (*agree)(void *actx, const char **msg);
    void *actx;
} demo_ckpt;

/* An error of the checkpoints on every rank: rank 0 says it; 1. */
static inline int demo_ckpt_fail(const char *demo, int rank, const char *msg)
{
    if (rank == 0)
        fprintf(stderr, "%s: %s\n", demo, msg);
    return 1;
}

/* Make the checkpoints of fields f[0..n-1] and the program's bytes user
 * (rank 0's are saved), and with --restart read them back: *start the
 * step they were written after (0 without --restart).  Collective.
 * 0, or 1 after rank 0 said why (on every rank). */
static inline int demo_ckpt_begin_plan(demo_ckpt *d, const char *demo,
                                       const demo_ckpt_opts *o, tile_plan *plan,
                                       tile_field **f, int n, void *user, size_t ub,
                                       uint64_t fingerprint, int64_t *start, int rank)
{
    tile_checkpoint_config c;
    char prev[1000], why[400];
    int k;
    memset(d, 0, sizeof *d);
    *start = 0;
    if (o->path == NULL && o->restart == NULL)
        return 0;
    tile_checkpoint_config_init(&c, o->path != NULL ? o->path : o->restart);
    for (k = 0; k < n; k++)
        c.fields[k] = f[k];
    c.nfields = n;
    c.user = user;
    c.user_bytes = ub;
    c.fingerprint = fingerprint;
    c.plan = plan;
    if ((d->on = o->path != NULL) != 0) {
        c.every_steps = o->every_steps;
        c.every_seconds = o->every_steps == 0 && o->every_seconds == 0 ? 600 : o->every_seconds;
        c.signal = SIGUSR1;
    }
    if (tile_checkpoint_create(&d->ck, &c) != TILE_OK)
        return demo_ckpt_fail(demo, rank, d->ck.errmsg);
    d->made = 1;
    if (o->restart == NULL)
        return 0;
    if (tile_checkpoint_read(&d->ck, o->restart, start) == TILE_OK) {
        if (rank == 0 && plan != NULL && plan->run.resume != NULL)
            fprintf(stderr, "%s: resuming the run inside, from %s\n", demo, o->restart);
        else if (rank == 0)
            fprintf(stderr, "%s: resuming after step %lld from %s\n", demo, (long long)*start,
                    o->restart);
        return 0;
    }
    snprintf(why, sizeof why, "%s", d->ck.errmsg);
    snprintf(prev, sizeof prev, "%s.1", o->restart);
    if (tile_checkpoint_read(&d->ck, prev, start) != TILE_OK) {
        if (rank == 0)
            fprintf(stderr, "%s: %s\n%s: and the one before: %s\n", demo, why, demo,
                    d->ck.errmsg);
        return 1;
    }
    if (rank == 0 && plan != NULL && plan->run.resume != NULL)
        fprintf(stderr, "%s: %s; resuming the run inside, from %s instead\n", demo, why, prev);
    else if (rank == 0)
        fprintf(stderr, "%s: %s; resuming after step %lld from %s instead\n", demo, why,
                (long long)*start, prev);
    return 0;
}

/* demo_ckpt_begin_plan() without a plan. */
static inline int demo_ckpt_begin(demo_ckpt *d, const char *demo, const demo_ckpt_opts *o,
                                  tile_field **f, int n, void *user, size_t ub,
                                  uint64_t fingerprint, int64_t *start, int rank)
{
    return demo_ckpt_begin_plan(d, demo, o, NULL, f, n, user, ub, fingerprint, start, rank);
}

/* At the boundary after step: write a checkpoint when due.  0 go on, 1
 * stop (written: the signal came), -1 failed (rank 0 said why). */
static inline int demo_ckpt_step(demo_ckpt *d, const char *demo, int64_t step, int rank)
{
    int due;
    if (!d->on)
        return 0;
    due = tile_checkpoint_due(&d->ck, step);
    if (d->ck.code != TILE_OK)
        return -demo_ckpt_fail(demo, rank, d->ck.errmsg);
    if ((due & TILE_CKPT_WRITE) && d->agree != NULL) {
        const char *msg = "";
        if (d->agree(d->actx, &msg) != 0) {
            if (rank == 0)
                fprintf(stderr, "%s: step %lld failed, no checkpoint written: %s\n", demo,
                        (long long)step, msg);
            return -1;
        }
    }
    if ((due & TILE_CKPT_WRITE) && tile_checkpoint_write(&d->ck, step) != TILE_OK)
        return -demo_ckpt_fail(demo, rank, d->ck.errmsg);
    if ((due & TILE_CKPT_STOP) && rank == 0)
        fprintf(stderr, "%s: stopped after step %lld on the signal: checkpoint %s written; "
                "run again with --restart %s\n", demo, (long long)step, d->ck.cfg.path,
                d->ck.cfg.path);
    return (due & TILE_CKPT_STOP) != 0;
}

static inline void demo_ckpt_end(demo_ckpt *d)
{
    if (d->made)
        tile_checkpoint_destroy(&d->ck);
    d->made = 0;
}

/* With --checkpoint, rank 0 says how many checkpoints were written where,
 * and its time in them. */
static inline void demo_ckpt_report(const demo_ckpt *d, const char *demo, int rank)
{
    if (d->on && rank == 0)
        fprintf(stderr, "%s: %lld checkpoint%s written to %s (%.3f s on rank 0)\n", demo,
                (long long)d->ck.written, d->ck.written == 1 ? "" : "s", d->ck.cfg.path,
                d->ck.seconds);
}

/* After a demo's one plan run with demo_ckpt_begin_plan(): rank 0 says
 * what was written, and on the signal that the run stopped; the
 * checkpoints ended.  TILE_CKPT_EXIT (75) after a stop (every rank alike),
 * else -1. */
static inline int demo_ckpt_plan_end(demo_ckpt *d, const char *demo, int rank)
{
    int stopped = d->made && d->ck.stopped;
    demo_ckpt_report(d, demo, rank);
    if (stopped && rank == 0)
        fprintf(stderr, "%s: stopped on the signal after a checkpoint: run again with "
                "--restart %s\n", demo, d->ck.cfg.path);
    demo_ckpt_end(d);
    return stopped ? TILE_CKPT_EXIT : -1;
}

/* FNV-1a of n bytes into h (the demos' fingerprints). */
static inline uint64_t demo_ckpt_hash(uint64_t h, const void *p, size_t n)
{
    const unsigned char *c = (const unsigned char *)p;
    size_t i;
    for (i = 0; i < n; i++)
        h = (h ^ c[i]) * 0x100000001b3ull;
    return h;
}

#endif
