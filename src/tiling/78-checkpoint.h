/* ------------------------------------------------------------------------ */
/* Checkpoints: a program of steps over fields, saved and resumed           */

/*
 * A checkpoint is one file that holds what a program of steps over fields
 * needs to go on after its step K: the blocks of the fields it names (not
 * their ghost layers: the next map's exchange refreshes those, and the
 * program's own set-up puts back the boundary's), the step K, and up to
 * TILE_CKPT_MAX_USER bytes of the program's own (norms, counters, the
 * time so far).  It is written between two steps, when no message is in
 * flight, by every rank at once with MPI-IO; atomically (under PATH.tmp,
 * synced, then renamed to PATH, the previous PATH kept as PATH.1); and
 * read back only into the same program: the same fingerprint (the
 * program's options that change its numbers), the same process count, the
 * same fields' shapes and grids, every block's checksum right.
 *
 * The file: a header (4096-byte multiple: the magic "TILECKPT", the format,
 * the toolkit's version, the step, the fingerprint, the process count, the
 * fields' shapes and grids, a 64-bit checksum of each rank's block of each
 * field, the program's bytes, the header's own checksum), then each field
 * whole in row-major order, the last dimension contiguous, native byte
 * order: a restart on another process count would need only the checksums
 * taken per block of the new grid, which is not done (it is refused).
 *
 * When: tile_checkpoint_due() at every step boundary on every rank says
 * whether to write now (every_steps: no message; every_seconds or a
 * signal: the previous boundary's flags, combined by a non-blocking
 * MPI_Iallreduce started there, so that no rank waits for it), and
 * whether to stop after writing (the signal: a batch system's warning).
 */

/** The most fields one checkpoint holds. */
#define TILE_CKPT_MAX_FIELDS 8
/** The most bytes of the program's own one checkpoint holds. */
#define TILE_CKPT_MAX_USER 65536
/** tile_checkpoint_due(): write a checkpoint at this boundary. */
#define TILE_CKPT_WRITE 1
/** tile_checkpoint_due(): after writing it, stop (the signal came). */
#define TILE_CKPT_STOP 2
/** The demos' exit status after a checkpoint on the signal (EX_TEMPFAIL:
 *  run again, with --restart). */
#define TILE_CKPT_EXIT 75

/**
 * struct tile_checkpoint_config - what a checkpoint saves and when
 * (tile_checkpoint_config_init()); the same on every rank.
 * @path:          the file (PATH; PATH.tmp while writing, PATH.1 the one
 *                 before); at most 1000 bytes.
 * @fields:        the fields saved (their blocks), @nfields of them (1 ..
 *                 TILE_CKPT_MAX_FIELDS; 0 when @user_bytes or @plan saves
 *                 something: over MPI_COMM_WORLD without either), all
 *                 over the same processes.
 * @user:          the program's own bytes (NULL when @user_bytes is 0),
 *                 saved and read back whole.
 * @user_bytes:    0 .. TILE_CKPT_MAX_USER.
 * @fingerprint:   the program's options that change its numbers, as the
 *                 program hashes them: a checkpoint of another fingerprint
 *                 is refused.
 * @every_steps:   write at every step that is a multiple of it (0: never
 *                 for this reason).
 * @every_seconds: write when this many seconds have passed on some rank
 *                 since the last checkpoint (or the creation); 0: never.
 * @signal:        a signal number (SIGUSR1: Slurm's --signal=USR1@60)
 *                 whose arrival on any rank writes a checkpoint and stops
 *                 the program (TILE_CKPT_STOP); 0: none.  ISO C's signal()
 *                 installs the handler.
 * @clock:         the clock of @every_seconds (NULL: MPI_Wtime); tests
 *                 inject their own.
 * @plan:          a plan whose runs checkpoint inside too (NULL: none):
 *                 its state at the end of a step (79-run-checkpoint.h);
 *                 the fields are then 0 .. TILE_CKPT_MAX_FIELDS - 1 (the
 *                 run's state takes a place).  Created before the
 *                 checkpoint, destroyed after it, over the fields'
 *                 processes.
 */
typedef struct tile_checkpoint_config {
    const char *path;
    tile_field *fields[TILE_CKPT_MAX_FIELDS];
    int nfields;
    void *user;
    size_t user_bytes;
    uint64_t fingerprint;
    int64_t every_steps;
    double every_seconds;
    int signal;
    double (*clock)(void);
    tile_plan *plan;
} tile_checkpoint_config;

/**
 * struct tile_checkpoint - a program's checkpoints (tile_checkpoint_create()).
 * Private fields but these: @written (checkpoints written), @code and
 * @errmsg (TILE_OK, or why the last call failed: the same on every rank),
 * @stopped (a plan's run stopped after its checkpoint, on the signal),
 * @seconds (this rank's time in the writes, a run's state copied in).
 * Pass it by pointer, never copy it (it owns a communicator and a pending
 * request).
 */
typedef struct tile_checkpoint {
    tile_checkpoint_config cfg;
    char path[1024];
    MPI_Comm comm;                  /* a duplicate of the first field's */
    int rank, size, pending, flags_in, flags_out;
    MPI_Request req;
    int64_t req_epoch;              /* @written when the request started */
    volatile sig_atomic_t *signalled;
    void (*old_handler)(int);       /* cfg.signal's disposition before create */
    double last;
    int64_t written;
    int code;
    char errmsg[320];
    tile_field state;               /* cfg.plan's run: a block per rank (cfg.fields[state_ix]) */
    int state_ix;                   /* -1: no plan */
    int in_run;                     /* writing a run's state */
    int stopped;
    double seconds;
    int64_t step_done;              /* the program's last step done (due, write, read) */
} tile_checkpoint;

TILEHYBRID__COLD int tile__ckpt_state_make(tile_checkpoint *ck, size_t bytes, int code);
TILEHYBRID__COLD int tile__ckpt_resume_take(tile_checkpoint *ck);
static inline const char *tile__ckpt_plan_refusal(const tile_plan *p);

/**
 * tile_checkpoint_config_init() - a configuration saving nothing yet
 * (add fields: c->fields[c->nfields++] = &f), written at @path on a
 * tile_checkpoint_write() only: no steps, no seconds, no signal.
 */
static inline void tile_checkpoint_config_init(tile_checkpoint_config *c, const char *path)
{
    if (c == NULL)
        return;
    memset(c, 0, sizeof *c);
    c->path = path;
}

/* A 64-bit word into the running checksum h. */
static inline uint64_t tile__ckpt_mix(uint64_t h, uint64_t w)
{
    h ^= w * 0x9e3779b97f4a7c15ull;
    h = (h << 29 | h >> 35) * 0xbf58476d1ce4e5b9ull;
    return h ^ (h >> 31);
}

/* n bytes at p into the running checksum h (whole words, then the rest
 * with its length). */
static inline uint64_t tile__ckpt_hash(uint64_t h, const unsigned char *p, size_t n)
{
    uint64_t w = 0;
    size_t i;
    for (i = 0; i + 8 <= n; i += 8) {
        memcpy(&w, p + i, 8);
        h = tile__ckpt_mix(h, w);
    }
    if (i < n) {
        w = 0;
        memcpy(&w, p + i, n - i);
        h = tile__ckpt_mix(h, w ^ (uint64_t)(n - i) << 56);
    }
    return h;
}

/* The message of a refusal, in ck->errmsg: code. */
static inline int tile__ckpt_say(tile_checkpoint *ck, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ck->errmsg, sizeof ck->errmsg, fmt, ap);
    va_end(ap);
    return code;
}

/* The header's words (64-bit), by index. */
enum {
    TILE__CK_MAGIC, TILE__CK_ENDIAN, TILE__CK_FORMAT, TILE__CK_FINGER, TILE__CK_STEP,
    TILE__CK_PROCS, TILE__CK_NFIELDS, TILE__CK_USER, TILE__CK_TOTAL, TILE__CK_SUM,
    TILE__CK_VERSION,                   /* 4 words: the toolkit's version */
    TILE__CK_FIELDS = TILE__CK_VERSION + 4
};
/* Per field: ndims, elem_size, extent[], pdims[]. */
#define TILE__CK_FWORDS (2 + 2 * (TILE_MAX_DIMS + 1))

#if TILEHYBRID__DEFINE
/* Set by the handler of cfg.signal (the checkpoints of this file's copy
 * of the code: a header-only program of several files creates its
 * checkpoints in one file). */
static volatile sig_atomic_t tile__ckpt_signalled;

TILEHYBRID__COLD void tile__ckpt_on_signal(int sig)
{
    /* ISO C's signal() may reset the handler on delivery (glibc does under
     * -std=c99: System V semantics), so that a second signal would kill the
     * process: set it again first (C99 7.14.1.1p5 allows this call). */
    (void)signal(sig, tile__ckpt_on_signal);
    tile__ckpt_signalled = 1;
}

/* The header's words for np processes (the checksums and the user's bytes
 * after the fields' table), and its bytes rounded up to 4096. */
TILEHYBRID__COLD int64_t tile__ckpt_words(int nfields, int np, size_t user, int64_t *bytes)
{
    int64_t w = TILE__CK_FIELDS + (int64_t)nfields * TILE__CK_FWORDS + (int64_t)np * nfields +
                (int64_t)(user + 7) / 8;
    *bytes = (w * 8 + 4095) / 4096 * 4096;
    return w;
}

/* Where field k starts in the file, and the file's size (*total). */
TILEHYBRID__COLD int64_t tile__ckpt_offset(const tile_checkpoint *ck, int k, int64_t *total)
{
    int64_t at, hb, e;
    int j, i;
    tile__ckpt_words(ck->cfg.nfields, ck->size, ck->cfg.user_bytes, &hb);
    at = hb;
    for (j = 0; j < ck->cfg.nfields; j++) {
        const tile_field *f = ck->cfg.fields[j];
        if (j == k)
            return at;
        for (e = (int64_t)f->elem_size, i = 0; i < f->ndims; i++)
            e *= f->extent[i];
        at += e;
    }
    *total = at;
    return at;
}

/* The checksum of this rank's block of f (its rows in row-major order). */
TILEHYBRID__COLD uint64_t tile__ckpt_block_sum(const tile_field *f)
{
    int64_t rows = 1, r;
    size_t rowb = (size_t)f->len[f->ndims - 1] * f->elem_size;
    uint64_t h = 0x2545f4914f6cdd1dull;
    int i;
    for (i = 0; i < f->ndims - 1; i++)
        rows *= f->len[i];
    for (r = 0; r < rows; r++)
        h = tile__ckpt_hash(h, f->data + (size_t)tile__field_rowat(f, f->len, f->ghost,
                                                                   f->stride, r) *
                                         f->elem_size, rowb);
    return tile__ckpt_mix(h, (uint64_t)rows);
}

/* The MPI types of field f: its element (*et), its block in the file
 * (*ft: a subarray of the whole field) and in memory (*mt: of the
 * allocation); an MPI code. */
TILEHYBRID__COLD int tile__ckpt_types(const tile_field *f, MPI_Datatype *et, MPI_Datatype *ft,
                                      MPI_Datatype *mt)
{
    int g[TILE_MAX_DIMS + 1], a[TILE_MAX_DIMS + 1], l[TILE_MAX_DIMS + 1], lo[TILE_MAX_DIMS + 1];
    int gh[TILE_MAX_DIMS + 1], i, rc;
    for (i = 0; i < f->ndims; i++) {
        g[i] = (int)f->extent[i];
        a[i] = (int)f->alen[i];
        l[i] = (int)f->len[i];
        lo[i] = (int)f->lo[i];
        gh[i] = (int)f->ghost[i];
    }
    *et = *ft = *mt = MPI_DATATYPE_NULL;
    rc = MPI_Type_contiguous((int)f->elem_size, MPI_BYTE, et);
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_commit(et);
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_create_subarray(f->ndims, g, l, lo, MPI_ORDER_C, *et, ft);
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_commit(ft);
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_create_subarray(f->ndims, a, l, gh, MPI_ORDER_C, *et, mt);
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_commit(mt);
    return rc;
}

TILEHYBRID__COLD void tile__ckpt_free_types(MPI_Datatype *t)
{
    int i;
    for (i = 0; i < 3; i++)
        if (t[i] != MPI_DATATYPE_NULL)
            (void)MPI_Type_free(&t[i]);
}

/* Every field's block to (write 1) or from (0) the open file fh; an MPI
 * code, *what the call that failed. */
TILEHYBRID__COLD int tile__ckpt_blocks(tile_checkpoint *ck, MPI_File fh, int write,
                                       const char **what)
{
    int k, rc = MPI_SUCCESS;
    int64_t total;
    for (k = 0; k < ck->cfg.nfields && rc == MPI_SUCCESS; k++) {
        tile_field *f = ck->cfg.fields[k];
        MPI_Datatype t[3];
        MPI_Status st;
        *what = "MPI_Type_create_subarray";
        rc = tile__ckpt_types(f, &t[0], &t[1], &t[2]);
        if (rc == MPI_SUCCESS) {
            *what = "MPI_File_set_view";
            rc = MPI_File_set_view(fh, (MPI_Offset)tile__ckpt_offset(ck, k, &total), t[0], t[1],
                                   "native", MPI_INFO_NULL);
        }
        if (rc == MPI_SUCCESS) {
            *what = write ? "MPI_File_write_all" : "MPI_File_read_all";
            rc = write ? MPI_File_write_all(fh, f->data, 1, t[2], &st)
                       : MPI_File_read_all(fh, f->data, 1, t[2], &st);
        }
        tile__ckpt_free_types(t);
    }
    return rc;
}

/* The header (nw words at w) of a checkpoint at step, with the block
 * checksums of every rank (sums, rank-major); rank 0 only. */
TILEHYBRID__COLD void tile__ckpt_header(const tile_checkpoint *ck, int64_t step,
                                        const uint64_t *sums, uint64_t *w, int64_t nw)
{
    int k, i, nf = ck->cfg.nfields;
    int64_t total = 0, at = TILE__CK_FIELDS + (int64_t)nf * TILE__CK_FWORDS;
    memset(w, 0, (size_t)nw * 8);
    memcpy(&w[TILE__CK_MAGIC], "TILECKPT", 8);
    w[TILE__CK_ENDIAN] = 0x0102030405060708ull;
    w[TILE__CK_FORMAT] = 1;
    w[TILE__CK_FINGER] = ck->cfg.fingerprint;
    w[TILE__CK_STEP] = (uint64_t)step;
    w[TILE__CK_PROCS] = (uint64_t)ck->size;
    w[TILE__CK_NFIELDS] = (uint64_t)nf;
    w[TILE__CK_USER] = (uint64_t)ck->cfg.user_bytes;
    tile__ckpt_offset(ck, nf, &total);
    w[TILE__CK_TOTAL] = (uint64_t)total;
    strncpy((char *)&w[TILE__CK_VERSION], TILE_VERSION, 31);
    for (k = 0; k < nf; k++) {
        const tile_field *f = ck->cfg.fields[k];
        uint64_t *fw = &w[TILE__CK_FIELDS + k * TILE__CK_FWORDS];
        fw[0] = (uint64_t)f->ndims;
        fw[1] = (uint64_t)f->elem_size;
        for (i = 0; i < f->ndims; i++) {
            fw[2 + i] = (uint64_t)f->extent[i];
            fw[2 + TILE_MAX_DIMS + 1 + i] = (uint64_t)f->pdims[i];
        }
    }
    memcpy(&w[at], sums, (size_t)ck->size * nf * 8);
    if (ck->cfg.user_bytes > 0)
        memcpy(&w[at + (int64_t)ck->size * nf], ck->cfg.user, ck->cfg.user_bytes);
    w[TILE__CK_SUM] = tile__ckpt_hash(0, (const unsigned char *)w, (size_t)nw * 8);
}

/* An MPI failure's message in ck->errmsg: TILE_ERR_MPI. */
TILEHYBRID__COLD int tile__ckpt_mpi_fail(tile_checkpoint *ck, const char *fn, const char *call,
                                         const char *file, int rc)
{
    char text[MPI_MAX_ERROR_STRING];
    tilehybrid__mpi_error_text(rc, text);
    return tile__ckpt_say(ck, TILE_ERR_MPI, "%s: rank %d: %s on '%.120s' failed: %.200s", fn,
                          ck->rank, call, file, text);
}

/* The verdict of every rank on code (this rank's message in ck->errmsg):
 * the lowest failing rank's, in ck->code and ck->errmsg on every rank. */
TILEHYBRID__COLD int tile__ckpt_agree(tile_checkpoint *ck, int code)
{
    tilehybrid_agreement a;
    int rc = tilehybrid_agree(ck->comm, code, NULL, 0, ck->errmsg, sizeof ck->errmsg, &a);
    if (rc != MPI_SUCCESS) {
        snprintf(ck->errmsg, sizeof ck->errmsg, "rank %d: %s failed (MPI error %d)", ck->rank,
                 a.call, rc);
        return ck->code = TILE_ERR_MPI;
    }
    return ck->code = a.code;
}
#else
TILEHYBRID__COLD void tile__ckpt_on_signal(int sig);
TILEHYBRID__COLD int64_t tile__ckpt_words(int nfields, int np, size_t user, int64_t *bytes);
TILEHYBRID__COLD int64_t tile__ckpt_offset(const tile_checkpoint *ck, int k, int64_t *total);
TILEHYBRID__COLD uint64_t tile__ckpt_block_sum(const tile_field *f);
TILEHYBRID__COLD int tile__ckpt_types(const tile_field *f, MPI_Datatype *et, MPI_Datatype *ft,
                                      MPI_Datatype *mt);
TILEHYBRID__COLD void tile__ckpt_free_types(MPI_Datatype *t);
TILEHYBRID__COLD int tile__ckpt_blocks(tile_checkpoint *ck, MPI_File fh, int write,
                                       const char **what);
TILEHYBRID__COLD void tile__ckpt_header(const tile_checkpoint *ck, int64_t step,
                                        const uint64_t *sums, uint64_t *w, int64_t nw);
TILEHYBRID__COLD int tile__ckpt_mpi_fail(tile_checkpoint *ck, const char *fn, const char *call,
                                         const char *file, int rc);
TILEHYBRID__COLD int tile__ckpt_agree(tile_checkpoint *ck, int code);
#endif

/* The checks of tile_checkpoint_create() on this rank: TILE_OK or the code,
 * the message in ck->errmsg. */
static inline int tile__ckpt_check_field(tile_checkpoint *ck, const tile_field *f, int k)
{
    const char *fn = "tile_checkpoint_create";
    int i, same = MPI_UNEQUAL;
    if (f == NULL || f->data == NULL || f->code != TILE_OK)
        return tile__ckpt_say(ck, TILE_ERR_NULL, "%s: fields[%d] is %s", fn, k,
                              f == NULL ? "NULL" : "not a created field");
    if (f->elem_size > INT_MAX)
        return tile__ckpt_say(ck, TILE_ERR_OVERFLOW, "%s: fields[%d]'s elements have more "
                              "than INT_MAX bytes (MPI-IO counts them in an int)", fn, k);
    for (i = 0; i < f->ndims; i++)
        if (f->extent[i] > INT_MAX || f->alen[i] > INT_MAX)
            return tile__ckpt_say(ck, TILE_ERR_OVERFLOW, "%s: fields[%d]'s extent[%d] is "
                                  "%lld, past INT_MAX (MPI-IO's subarrays count in an int)",
                                  fn, k, i, (long long)f->extent[i]);
    if (k > 0 && (MPI_Comm_compare(ck->cfg.fields[0]->comm, f->comm, &same) != MPI_SUCCESS ||
                  (same != MPI_IDENT && same != MPI_CONGRUENT)))
        return tile__ckpt_say(ck, TILE_ERR_ARG, "%s: fields[%d] is not over the processes "
                              "of fields[0], in their order", fn, k);
    return TILE_OK;
}

static inline int tile__ckpt_check(tile_checkpoint *ck, const tile_checkpoint_config *c)
{
    const char *fn = "tile_checkpoint_create";
    int k, rc;
    if (c->path == NULL)
        return tile__ckpt_say(ck, TILE_ERR_NULL, "%s: path is NULL", fn);
    if (c->path[0] == '\0' || strlen(c->path) > 1000)
        return tile__ckpt_say(ck, TILE_ERR_RANGE, "%s: path is %s", fn,
                              c->path[0] == '\0' ? "empty" : "longer than 1000 bytes");
    if (c->nfields < (c->plan != NULL || c->user_bytes > 0 ? 0 : 1) ||
        c->nfields > TILE_CKPT_MAX_FIELDS - (c->plan != NULL))
        return tile__ckpt_say(ck, TILE_ERR_RANGE, "%s: nfields is %d: it must be %d to %d%s",
                              fn, c->nfields, c->plan != NULL || c->user_bytes > 0 ? 0 : 1,
                              TILE_CKPT_MAX_FIELDS - (c->plan != NULL),
                              c->plan != NULL ? " with a plan"
                              : c->user_bytes > 0 ? "" : " (a checkpoint that saves nothing)");
    if (c->plan != NULL && tile__ckpt_plan_refusal(c->plan) != NULL)
        return tile__ckpt_say(ck, TILE_ERR_ARG, "%s: rank %d: the plan %s", fn, c->plan->rank,
                              tile__ckpt_plan_refusal(c->plan));
    if (c->user_bytes > TILE_CKPT_MAX_USER)
        return tile__ckpt_say(ck, TILE_ERR_RANGE, "%s: user_bytes is %lu: it must be at most "
                              "TILE_CKPT_MAX_USER (65536)", fn, (unsigned long)c->user_bytes);
    if (c->user_bytes > 0 && c->user == NULL)
        return tile__ckpt_say(ck, TILE_ERR_NULL, "%s: user is NULL and user_bytes %lu", fn,
                              (unsigned long)c->user_bytes);
    if (c->every_steps < 0 || c->signal < 0)
        return tile__ckpt_say(ck, TILE_ERR_RANGE, "%s: %s is negative", fn,
                              c->every_steps < 0 ? "every_steps" : "signal");
    if (!(c->every_seconds >= 0 && c->every_seconds <= 1e300))
        return tile__ckpt_say(ck, TILE_ERR_RANGE, "%s: every_seconds is %g: it must be 0 or "
                              "a finite positive number", fn, c->every_seconds);
    for (k = 0; k < c->nfields; k++)
        if ((rc = tile__ckpt_check_field(ck, c->fields[k], k)) != TILE_OK)
            return rc;
    if (c->plan != NULL && c->nfields > 0) {
        int same = MPI_UNEQUAL;
        if (MPI_Comm_compare(c->plan->comm, c->fields[0]->comm, &same) != MPI_SUCCESS ||
            same == MPI_UNEQUAL)
            return tile__ckpt_say(ck, TILE_ERR_ARG, "%s: the plan is not over the processes "
                                  "of fields[0]", fn);
    }
    return TILE_OK;
}

#if TILEHYBRID__DEFINE
/* 1 (the message in ck->errmsg) when path exists and is not a file that
 * reads: a directory, say (ISO C's fopen() opens one, its first read
 * fails); 0 when it is a file or does not exist. */
TILEHYBRID__COLD int tile__ckpt_not_file(tile_checkpoint *ck, const char *fn, const char *path)
{
    FILE *f = fopen(path, "rb");
    int bad;
    if (f == NULL)
        return 0;
    bad = fgetc(f) == EOF && ferror(f);
    fclose(f);
    if (bad)
        tile__ckpt_say(ck, TILE_ERR_CHECKPOINT, "%s: rank %d: '%.120s' is a directory or "
                       "another thing than a file: path must name a file (PATH, PATH.1 and "
                       "PATH.tmp are written)", fn, ck->rank, path);
    return bad;
}

/* Whether the checkpoints can be written where cfg.path says, at creation
 * rather than at the first write (hours on, or at the time limit's
 * signal): rank 0 checks that PATH and PATH.1 are no directories, every
 * rank opens PATH.tmp (created, deleted on close).  TILE_OK or the code
 * (ck->errmsg). */
TILEHYBRID__COLD int tile__ckpt_probe(tile_checkpoint *ck)
{
    const char *fn = "tile_checkpoint_create";
    char name[1040];
    MPI_File fh = MPI_FILE_NULL;
    int rc, code = TILE_OK;
    snprintf(name, sizeof name, "%s.1", ck->path);
    if (ck->rank == 0 && (tile__ckpt_not_file(ck, fn, ck->path) ||
                          tile__ckpt_not_file(ck, fn, name)))
        code = TILE_ERR_CHECKPOINT;
    if (tile__ckpt_agree(ck, code) != TILE_OK)
        return ck->code;
    snprintf(name, sizeof name, "%s.tmp", ck->path);
    rc = MPI_File_open(ck->comm, name, MPI_MODE_CREATE | MPI_MODE_WRONLY |
                       MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh);
    if (rc != MPI_SUCCESS)
        code = tile__ckpt_mpi_fail(ck, fn, "MPI_File_open (can PATH.tmp be written?)", name, rc);
    if (fh != MPI_FILE_NULL)
        (void)MPI_File_close(&fh);
    return tile__ckpt_agree(ck, code);
}

/**
 * tile_checkpoint_destroy() - wait for the pending agreement of
 * tile_checkpoint_due() (every rank calls this at the same boundary),
 * put back the signal's action from before tile_checkpoint_create(), free
 * the communicator; safe on a failed checkpoint and twice.
 */
TILEHYBRID__COLD void tile_checkpoint_destroy(tile_checkpoint *ck)
{
    int fin = 0;
    if (ck == NULL)
        return;
    MPI_Finalized(&fin);
    if (ck->pending && !fin)
        (void)MPI_Wait(&ck->req, MPI_STATUS_IGNORE);
    ck->pending = 0;
    if (ck->signalled != NULL && ck->cfg.signal > 0)
        (void)signal(ck->cfg.signal, ck->old_handler != NULL ? ck->old_handler : SIG_DFL);
    ck->signalled = NULL;
    if (ck->cfg.plan != NULL && ck->cfg.plan->run.ckpt == ck)
        ck->cfg.plan->run.ckpt = NULL;
    if (!fin && ck->state.data != NULL)
        (void)tile_field_destroy(&ck->state);
    ck->state.data = NULL;
    if (!fin && ck->comm != MPI_COMM_NULL)
        (void)MPI_Comm_free(&ck->comm);
    ck->comm = MPI_COMM_NULL;
    if (ck->code == TILE_OK) {
        ck->code = TILE_ERR_ARG;
        snprintf(ck->errmsg, sizeof ck->errmsg, "the checkpoint was destroyed "
                 "(tile_checkpoint_destroy)");
    }
}

/**
 * tile_checkpoint_create() - a program's checkpoints as @cfg says (copied;
 * the fields and the user's bytes must outlive it).  Collective over the
 * fields' processes; every rank passes the same configuration (the
 * fields are its own blocks) and gets the same verdict.  With cfg->signal
 * it installs that signal's handler.  With every_steps, every_seconds or
 * signal it checks that the checkpoints can be written: PATH and PATH.1
 * are no directories and PATH.tmp can be created (it is, and deleted).
 * Return: TILE_OK; TILE_ERR_NULL, TILE_ERR_RANGE, TILE_ERR_OVERFLOW,
 * TILE_ERR_ARG (fields over other processes), TILE_ERR_MISMATCH (ranks
 * differ), TILE_ERR_CHECKPOINT (PATH or PATH.1 a directory) or
 * TILE_ERR_MPI (PATH.tmp cannot be created); the message in ck->errmsg.
 */
TILEHYBRID__COLD int tile_checkpoint_create(tile_checkpoint *ck, const tile_checkpoint_config *cfg)
{
    uint64_t v[8];
    tilehybrid_agreement a;
    MPI_Comm base = MPI_COMM_WORLD;
    int code, rc;
    if (ck == NULL)
        return TILE_ERR_NULL;
    memset(ck, 0, sizeof *ck);
    ck->comm = MPI_COMM_NULL;
    ck->state_ix = -1;
    if (cfg == NULL) {
        snprintf(ck->errmsg, sizeof ck->errmsg, "tile_checkpoint_create: cfg is NULL");
        return ck->code = TILE_ERR_NULL;
    }
    ck->cfg = *cfg;
    code = tile__ckpt_check(ck, cfg);
    if (cfg->nfields >= 1 && cfg->fields[0] != NULL && cfg->fields[0]->comm != MPI_COMM_NULL)
        base = cfg->fields[0]->comm;
    else if (cfg->plan != NULL && cfg->plan->comm != MPI_COMM_NULL)
        base = cfg->plan->comm;
    v[0] = cfg->fingerprint;
    v[1] = (uint64_t)cfg->nfields;
    v[2] = (uint64_t)cfg->user_bytes;
    v[3] = (uint64_t)cfg->every_steps;
    v[4] = tilehybrid_bits(cfg->every_seconds);
    v[5] = (uint64_t)cfg->signal;
    v[6] = cfg->path != NULL ? tile__ckpt_hash(0, (const unsigned char *)cfg->path,
                                               strlen(cfg->path)) : 0;
    v[7] = cfg->plan != NULL;
    rc = tilehybrid_agree(base, code, v, 8, ck->errmsg, sizeof ck->errmsg, &a);
    if (rc != MPI_SUCCESS)
        return tile__ckpt_mpi_fail(ck, "tile_checkpoint_create", a.call, cfg->path ? cfg->path
                                   : "", rc), ck->code = TILE_ERR_MPI;
    if (a.code == TILE_OK && a.index >= 0) {
        static const char *const what[8] = { "fingerprint", "nfields", "user_bytes",
                                             "every_steps", "every_seconds", "signal",
                                             "path", "plan" };
        snprintf(ck->errmsg, sizeof ck->errmsg, "tile_checkpoint_create: %s differs between "
                 "ranks", what[a.index]);
        a.code = TILE_ERR_MISMATCH;
    }
    if ((ck->code = a.code) != TILE_OK)
        return ck->code;
    snprintf(ck->path, sizeof ck->path, "%s", cfg->path);
    ck->cfg.path = ck->path;
    rc = MPI_Comm_dup(base, &ck->comm);
    if (rc == MPI_SUCCESS)
        rc = MPI_Comm_rank(ck->comm, &ck->rank);
    if (rc == MPI_SUCCESS)
        rc = MPI_Comm_size(ck->comm, &ck->size);
    if (rc != MPI_SUCCESS)
        return tile__ckpt_mpi_fail(ck, "tile_checkpoint_create", "MPI_Comm_dup", ck->path, rc),
               ck->code = TILE_ERR_MPI;
    ck->last = ck->cfg.clock != NULL ? ck->cfg.clock() : MPI_Wtime();
    if ((cfg->every_steps > 0 || cfg->every_seconds > 0 || cfg->signal > 0) &&
        tile__ckpt_probe(ck) != TILE_OK)
        return ck->code;
    if (cfg->plan != NULL) {        /* the run's state: the last field */
        if (tile__ckpt_state_make(ck, 0, TILE_OK) != TILE_OK)
            return ck->code;
        ck->state_ix = ck->cfg.nfields;
        ck->cfg.fields[ck->cfg.nfields++] = &ck->state;
        cfg->plan->run.ckpt = ck;
    }
    if (cfg->signal > 0) {
        tile__ckpt_signalled = 0;
        ck->signalled = &tile__ckpt_signalled;
        if ((ck->old_handler = signal(cfg->signal, tile__ckpt_on_signal)) == SIG_ERR)
            code = TILE_ERR_RANGE, ck->old_handler = NULL;
    }
    if (code != TILE_OK)
        snprintf(ck->errmsg, sizeof ck->errmsg, "tile_checkpoint_create: signal %d cannot be "
                 "caught (ISO C signal() refused it)", cfg->signal);
    return tile__ckpt_agree(ck, code);
}

/* The agreement of the seconds and the signal: the previous boundary's
 * flags (their request waited for), then this one's started; the flags
 * that ask for a checkpoint in *r. */
TILEHYBRID__COLD int tile__ckpt_poll(tile_checkpoint *ck, int *r)
{
    int rc = MPI_SUCCESS;
    double now = ck->cfg.clock != NULL ? ck->cfg.clock() : MPI_Wtime();
    if (ck->pending) {
        rc = MPI_Wait(&ck->req, MPI_STATUS_IGNORE);
        ck->pending = 0;
        if (ck->flags_out & 2) {        /* the signal, heard: once */
            *r |= TILE_CKPT_WRITE | TILE_CKPT_STOP;
            if (ck->signalled != NULL)
                *ck->signalled = 0;
        }
        if ((ck->flags_out & 1) && ck->req_epoch == ck->written)
            *r |= TILE_CKPT_WRITE;
    }
    ck->flags_in = (ck->cfg.every_seconds > 0 && now - ck->last >= ck->cfg.every_seconds) |
                   (ck->signalled != NULL && *ck->signalled ? 2 : 0);
    ck->req_epoch = ck->written;
#if MPI_VERSION >= 3
    if (rc == MPI_SUCCESS)
        rc = MPI_Iallreduce(&ck->flags_in, &ck->flags_out, 1, MPI_INT, MPI_BOR, ck->comm,
                            &ck->req);
    ck->pending = rc == MPI_SUCCESS;
#else
    if (rc == MPI_SUCCESS)      /* MPI 2.2: the agreement at once, read next time */
        rc = MPI_Allreduce(&ck->flags_in, &ck->flags_out, 1, MPI_INT, MPI_BOR, ck->comm);
    if (rc == MPI_SUCCESS && (ck->flags_out & 2)) {
        *r |= TILE_CKPT_WRITE | TILE_CKPT_STOP;
        if (ck->signalled != NULL)
            *ck->signalled = 0;
    }
    if (rc == MPI_SUCCESS && (ck->flags_out & 1))
        *r |= TILE_CKPT_WRITE;
#endif
    return rc;
}

/**
 * tile_checkpoint_due() - whether to write a checkpoint at the boundary
 * after @step: call it on every rank at every step boundary, in the same
 * order as the program's other collectives on the fields' processes.
 * every_steps needs no message; every_seconds and the signal are the
 * previous boundary's flags of every rank, agreed by a non-blocking
 * MPI_Iallreduce that this call waits for and starts again (so they act
 * one boundary after they were seen, on every rank alike).
 * Return: 0, TILE_CKPT_WRITE, or TILE_CKPT_WRITE | TILE_CKPT_STOP (the
 * signal came: write, then end the program); 0 on a failed checkpoint
 * (ck->code says why: an MPI failure is this rank's alone, end the job).
 */
TILEHYBRID__COLD int tile_checkpoint_due(tile_checkpoint *ck, int64_t step)
{
    int r = 0, rc;
    if (ck == NULL || ck->comm == MPI_COMM_NULL)
        return 0;
    ck->step_done = step;
    if (ck->cfg.every_steps > 0 && step % ck->cfg.every_steps == 0)
        r |= TILE_CKPT_WRITE;
    if (ck->cfg.every_seconds > 0 || ck->signalled != NULL) {
        if ((rc = tile__ckpt_poll(ck, &r)) != MPI_SUCCESS) {
            ck->code = tile__ckpt_mpi_fail(ck, "tile_checkpoint_due", "MPI_Iallreduce",
                                           ck->path, rc);
            return 0;
        }
    }
    return r;
}
#else
TILEHYBRID__COLD int tile__ckpt_not_file(tile_checkpoint *ck, const char *fn, const char *path);
TILEHYBRID__COLD int tile__ckpt_probe(tile_checkpoint *ck);
TILEHYBRID__COLD void tile_checkpoint_destroy(tile_checkpoint *ck);
TILEHYBRID__COLD int tile_checkpoint_create(tile_checkpoint *ck, const tile_checkpoint_config *cfg);
TILEHYBRID__COLD int tile__ckpt_poll(tile_checkpoint *ck, int *r);
TILEHYBRID__COLD int tile_checkpoint_due(tile_checkpoint *ck, int64_t step);
#endif

#if TILEHYBRID__DEFINE
/* This rank's block checksums, gathered (rank-major) to rank 0's sums
 * (NULL elsewhere); an MPI code. */
TILEHYBRID__COLD int tile__ckpt_gather_sums(tile_checkpoint *ck, uint64_t *sums)
{
    uint64_t mine[TILE_CKPT_MAX_FIELDS];
    int k;
    for (k = 0; k < ck->cfg.nfields; k++)
        mine[k] = tile__ckpt_block_sum(ck->cfg.fields[k]);
    return MPI_Gather(mine, ck->cfg.nfields, MPI_UINT64_T, sums, ck->cfg.nfields, MPI_UINT64_T,
                      0, ck->comm);
}

/* PATH.tmp written whole and closed: the header (rank 0) and the blocks;
 * TILE_OK or the code (ck->errmsg says it). */
TILEHYBRID__COLD int tile__ckpt_write_tmp(tile_checkpoint *ck, const char *tmp, int64_t step)
{
    const char *fn = "tile_checkpoint_write", *what = "malloc";
    int64_t hb, nw = tile__ckpt_words(ck->cfg.nfields, ck->size, ck->cfg.user_bytes, &hb), total;
    uint64_t *w = NULL, *sums = NULL;
    MPI_File fh = MPI_FILE_NULL;
    MPI_Status st;
    int rc = MPI_SUCCESS;
    tile__ckpt_offset(ck, ck->cfg.nfields, &total);
    if (ck->rank == 0) {
        w = (uint64_t *)TILEHYBRID_MALLOC((size_t)hb);
        sums = (uint64_t *)TILEHYBRID_MALLOC((size_t)ck->size * ck->cfg.nfields * 8);
    }
    if (ck->rank == 0 && (w == NULL || sums == NULL))
        snprintf(ck->errmsg, sizeof ck->errmsg, "%s: rank 0: out of memory for the header "
                 "(%lld bytes)", fn, (long long)hb);
    if (tile__ckpt_agree(ck, ck->rank == 0 && (w == NULL || sums == NULL) ? TILE_ERR_NOMEM
                                                                           : TILE_OK) == TILE_OK) {
        if ((rc = tile__ckpt_gather_sums(ck, sums)) != MPI_SUCCESS)
            what = "MPI_Gather";
        if (rc == MPI_SUCCESS && ck->rank == 0) {
            tile__ckpt_header(ck, step, sums, w, nw);
            memset(w + nw, 0, (size_t)(hb - nw * 8));
        }
        if (rc == MPI_SUCCESS && (rc = MPI_File_open(ck->comm, tmp, MPI_MODE_CREATE |
                                      MPI_MODE_WRONLY, MPI_INFO_NULL, &fh)) != MPI_SUCCESS)
            what = "MPI_File_open";
        if (rc == MPI_SUCCESS && (rc = MPI_File_set_size(fh, (MPI_Offset)total)) != MPI_SUCCESS)
            what = "MPI_File_set_size";
        if (rc == MPI_SUCCESS && ck->rank == 0 &&
            (rc = MPI_File_write_at(fh, 0, w, (int)hb, MPI_BYTE, &st)) != MPI_SUCCESS)
            what = "MPI_File_write_at";
        if (rc == MPI_SUCCESS)
            rc = tile__ckpt_blocks(ck, fh, 1, &what);
        if (rc == MPI_SUCCESS && (rc = MPI_File_sync(fh)) != MPI_SUCCESS)
            what = "MPI_File_sync";
        if (fh != MPI_FILE_NULL && MPI_File_close(&fh) != MPI_SUCCESS && rc == MPI_SUCCESS)
            rc = MPI_ERR_FILE, what = "MPI_File_close";
        if (rc != MPI_SUCCESS)
            tile__ckpt_mpi_fail(ck, fn, what, tmp, rc);
        tile__ckpt_agree(ck, rc == MPI_SUCCESS ? TILE_OK : TILE_ERR_MPI);
    }
    TILEHYBRID_FREE(w);
    TILEHYBRID_FREE(sums);
    return ck->code;
}

/* Every rank writes after the same step (rank 0's goes into the header):
 * TILE_OK, or TILE_ERR_MISMATCH on every rank naming the rank that
 * differs. */
TILEHYBRID__COLD int tile__ckpt_same_step(tile_checkpoint *ck, int64_t step)
{
    tilehybrid_agreement a;
    uint64_t v = (uint64_t)step;
    int rc = tilehybrid_agree(ck->comm, TILE_OK, &v, 1, ck->errmsg, sizeof ck->errmsg, &a);
    if (rc != MPI_SUCCESS)
        return tile__ckpt_mpi_fail(ck, "tile_checkpoint_write", a.call, ck->path, rc),
               ck->code = TILE_ERR_MPI;
    if (a.index >= 0)
        return tile__ckpt_say(ck, TILE_ERR_MISMATCH, "tile_checkpoint_write: step differs "
                              "between ranks (%lld on some, %lld on others; this rank %d's: "
                              "%lld): every rank writes at the same boundary", (long long)a.lo,
                              (long long)a.hi, ck->rank, (long long)step),
               ck->code = TILE_ERR_MISMATCH;
    return TILE_OK;
}

/* Rank 0: PATH to PATH.1 (when there is one), PATH.tmp to PATH; neither
 * PATH nor PATH.1 may be a directory (rename() would move the user's
 * directory aside). */
TILEHYBRID__COLD int tile__ckpt_rename(tile_checkpoint *ck, const char *tmp)
{
    char prev[1040];
    FILE *old = fopen(ck->path, "rb");
    snprintf(prev, sizeof prev, "%s.1", ck->path);
    if (tile__ckpt_not_file(ck, "tile_checkpoint_write", ck->path) ||
        tile__ckpt_not_file(ck, "tile_checkpoint_write", prev)) {
        if (old != NULL)
            fclose(old);
        return TILE_ERR_CHECKPOINT;
    }
    if (old != NULL) {
        fclose(old);
        if (rename(ck->path, prev) != 0) {
            snprintf(ck->errmsg, sizeof ck->errmsg, "tile_checkpoint_write: rank 0: renaming "
                     "'%.100s' to '%.100s' failed: %.40s", ck->path, prev, strerror(errno));
            return TILE_ERR_CHECKPOINT;
        }
    }
    if (rename(tmp, ck->path) != 0) {
        snprintf(ck->errmsg, sizeof ck->errmsg, "tile_checkpoint_write: rank 0: renaming "
                 "'%.100s' to '%.100s' failed: %.40s", tmp, ck->path, strerror(errno));
        return TILE_ERR_CHECKPOINT;
    }
    return TILE_OK;
}

/**
 * tile_checkpoint_write() - write a checkpoint after step @step: every
 * field's block, the step and the program's bytes, into PATH.tmp with
 * MPI-IO, synced, then renamed to PATH (the previous PATH kept as
 * PATH.1).  Collective: call it on every rank at the same boundary, no
 * message in flight (between two steps).  A job killed while writing
 * leaves PATH and PATH.1 whole.
 * Return: TILE_OK; TILE_ERR_NULL, TILE_ERR_ARG (a failed or destroyed
 * checkpoint), TILE_ERR_MISMATCH (@step differs between ranks: nothing
 * written), TILE_ERR_NOMEM, TILE_ERR_MPI (an MPI-IO call failed: the
 * message names it and the file) or TILE_ERR_CHECKPOINT (a rename
 * failed); the same on every rank.
 */
TILEHYBRID__COLD int tile_checkpoint_write(tile_checkpoint *ck, int64_t step)
{
    char tmp[1040];
    int code;
    double t0 = MPI_Wtime();
    if (ck == NULL)
        return TILE_ERR_NULL;
    if (ck->comm == MPI_COMM_NULL)          /* failed creation, or destroyed */
        return ck->code != TILE_OK ? ck->code : TILE_ERR_ARG;
    ck->code = TILE_OK;
    ck->step_done = step;
    if (ck->state_ix >= 0 && !ck->in_run &&
        tile__ckpt_state_make(ck, 0, TILE_OK) != TILE_OK)    /* no run's state */
        return ck->code;
    snprintf(tmp, sizeof tmp, "%s.tmp", ck->path);
    if (tile__ckpt_same_step(ck, step) != TILE_OK || tile__ckpt_write_tmp(ck, tmp, step) != TILE_OK)
        return ck->code;
    code = ck->rank == 0 ? tile__ckpt_rename(ck, tmp) : TILE_OK;
    if (tile__ckpt_agree(ck, code) != TILE_OK)
        return ck->code;
    ck->written++;
    ck->last = ck->cfg.clock != NULL ? ck->cfg.clock() : MPI_Wtime();
    ck->seconds += MPI_Wtime() - t0;
    return TILE_OK;
}
#else
TILEHYBRID__COLD int tile__ckpt_gather_sums(tile_checkpoint *ck, uint64_t *sums);
TILEHYBRID__COLD int tile__ckpt_write_tmp(tile_checkpoint *ck, const char *tmp, int64_t step);
TILEHYBRID__COLD int tile__ckpt_same_step(tile_checkpoint *ck, int64_t step);
TILEHYBRID__COLD int tile__ckpt_rename(tile_checkpoint *ck, const char *tmp);
TILEHYBRID__COLD int tile_checkpoint_write(tile_checkpoint *ck, int64_t step);
#endif

#if TILEHYBRID__DEFINE
/* Why rank 0's header w (nw words, from a file of fsize bytes) is not this
 * program's checkpoint: TILE_OK, or TILE_ERR_CHECKPOINT with the reason in
 * ck->errmsg (the fields' shapes and grids, then the program's). */
TILEHYBRID__COLD int tile__ckpt_mismatch(tile_checkpoint *ck, const uint64_t *w, int64_t fsize,
                                         const char *path)
{
    int64_t total;
    int k, i;
    tile__ckpt_offset(ck, ck->cfg.nfields, &total);
    if ((int64_t)w[TILE__CK_TOTAL] != fsize)
        return tile__ckpt_say(ck, TILE_ERR_CHECKPOINT,
                              "tile_checkpoint_read: '%.120s' has %lld bytes where its header "
                              "says %lld: the file is truncated or damaged", path, (long long)fsize,
                              (long long)w[TILE__CK_TOTAL]);
    if (w[TILE__CK_PROCS] != (uint64_t)ck->size)
        return tile__ckpt_say(ck, TILE_ERR_CHECKPOINT,
                              "tile_checkpoint_read: '%.120s' was written by %llu processes, "
                              "this run has %d: restart with as many", path,
                              (unsigned long long)w[TILE__CK_PROCS], ck->size);
    if (w[TILE__CK_FINGER] != ck->cfg.fingerprint)
        return tile__ckpt_say(ck, TILE_ERR_CHECKPOINT,
                              "tile_checkpoint_read: '%.120s' is of another configuration "
                              "(fingerprint %016llx, this run's %016llx)", path,
                              (unsigned long long)w[TILE__CK_FINGER],
                              (unsigned long long)ck->cfg.fingerprint);
    if (w[TILE__CK_NFIELDS] != (uint64_t)ck->cfg.nfields ||
        w[TILE__CK_USER] != (uint64_t)ck->cfg.user_bytes)
        return tile__ckpt_say(ck, TILE_ERR_CHECKPOINT,
                              "tile_checkpoint_read: '%.120s' holds %llu fields and %llu bytes "
                              "of the program's, this run saves %d and %lu", path,
                              (unsigned long long)w[TILE__CK_NFIELDS],
                              (unsigned long long)w[TILE__CK_USER], ck->cfg.nfields,
                              (unsigned long)ck->cfg.user_bytes);
    for (k = 0; k < ck->cfg.nfields; k++) {
        const tile_field *f = ck->cfg.fields[k];
        const uint64_t *fw = &w[TILE__CK_FIELDS + k * TILE__CK_FWORDS];
        int same = fw[0] == (uint64_t)f->ndims && fw[1] == (uint64_t)f->elem_size;
        if (k == ck->state_ix) {    /* the run's state: a block per rank, any size */
            if (!same || fw[2 + TILE_MAX_DIMS + 1] != (uint64_t)ck->size ||
                fw[2] % (uint64_t)ck->size != 0)
                return tile__ckpt_say(ck, TILE_ERR_CHECKPOINT, "tile_checkpoint_read: "
                                      "'%.120s': its plan's state is damaged", path);
            continue;
        }
        for (i = 0; same && i < f->ndims; i++)
            same = fw[2 + i] == (uint64_t)f->extent[i] &&
                   fw[2 + TILE_MAX_DIMS + 1 + i] == (uint64_t)f->pdims[i];
        if (!same)
            return tile__ckpt_say(ck, TILE_ERR_CHECKPOINT,
                                  "tile_checkpoint_read: field %d of '%.120s' has another "
                                  "shape, element size or process grid than fields[%d] here", k + 1,
                                  path, k);
    }
    return TILE_OK;
}

/* Rank 0: the header of the open file fh (fsize bytes) into *w (allocated,
 * *nw words), checked: TILE_OK or the code (ck->errmsg says why). */
TILEHYBRID__COLD int tile__ckpt_read_header(tile_checkpoint *ck, MPI_File fh, int64_t fsize,
                                            const char *path, uint64_t **w, int64_t *hb)
{
    uint64_t head[TILE__CK_FIELDS], sum;
    MPI_Status st;
    int rc;
    if (fsize < 4096 || (rc = MPI_File_read_at(fh, 0, head, (int)sizeof head, MPI_BYTE, &st)) !=
        MPI_SUCCESS || memcmp(head, "TILECKPT", 8) != 0)
        return tile__ckpt_say(ck, TILE_ERR_CHECKPOINT, "tile_checkpoint_read: '%.120s' is not a "
                              "tilehybrid checkpoint (%s)", path, fsize < 4096 ? "shorter than a "
                              "header" : "no TILECKPT at its start");
    if (head[TILE__CK_ENDIAN] != 0x0102030405060708ull || head[TILE__CK_FORMAT] != 1 ||
        head[TILE__CK_NFIELDS] < (head[TILE__CK_USER] > 0 ? 0u : 1u) ||
        head[TILE__CK_NFIELDS] > TILE_CKPT_MAX_FIELDS ||
        head[TILE__CK_USER] > TILE_CKPT_MAX_USER || head[TILE__CK_PROCS] < 1 ||
        head[TILE__CK_PROCS] > (uint64_t)INT_MAX / TILE_CKPT_MAX_FIELDS)
        return tile__ckpt_say(ck, TILE_ERR_CHECKPOINT, "tile_checkpoint_read: '%.120s': %s",
                              path, head[TILE__CK_ENDIAN] != 0x0102030405060708ull ? "written on a "
                              "machine of the other byte order" : head[TILE__CK_FORMAT] != 1
                              ? "another format than this toolkit's (1)" : "its header is damaged");
    tile__ckpt_words((int)head[TILE__CK_NFIELDS], (int)head[TILE__CK_PROCS],
                     (size_t)head[TILE__CK_USER], hb);
    if (fsize < *hb)
        return tile__ckpt_say(ck, TILE_ERR_CHECKPOINT, "tile_checkpoint_read: '%.120s' is "
                              "truncated (%lld bytes, shorter than its header)", path,
                              (long long)fsize);
    if ((*w = (uint64_t *)TILEHYBRID_MALLOC((size_t)*hb)) == NULL)
        return tile__ckpt_say(ck, TILE_ERR_NOMEM, "tile_checkpoint_read: rank 0: out of "
                              "memory for the header");
    if ((rc = MPI_File_read_at(fh, 0, *w, (int)*hb, MPI_BYTE, &st)) != MPI_SUCCESS)
        return tile__ckpt_mpi_fail(ck, "tile_checkpoint_read", "MPI_File_read_at", path, rc);
    sum = (*w)[TILE__CK_SUM];
    (*w)[TILE__CK_SUM] = 0;
    if (tile__ckpt_hash(0, (const unsigned char *)*w,
                        (size_t)tile__ckpt_words((int)head[TILE__CK_NFIELDS],
                                                 (int)head[TILE__CK_PROCS],
                                                 (size_t)head[TILE__CK_USER], hb) * 8) != sum)
        return tile__ckpt_say(ck, TILE_ERR_CHECKPOINT, "tile_checkpoint_read: '%.120s': its "
                              "header is damaged (checksum)", path);
    return tile__ckpt_mismatch(ck, *w, fsize, path);
}

/* Every rank: the blocks read from fh, each checked against the header's
 * checksum (w, *nw words, the same on every rank): TILE_OK or the code. */
TILEHYBRID__COLD int tile__ckpt_read_blocks(tile_checkpoint *ck, MPI_File fh, const uint64_t *w,
                                            const char *path)
{
    const char *what = "";
    const uint64_t *sums = w + TILE__CK_FIELDS + (int64_t)ck->cfg.nfields * TILE__CK_FWORDS;
    int k, rc = tile__ckpt_blocks(ck, fh, 0, &what);
    if (rc != MPI_SUCCESS)
        return tile__ckpt_mpi_fail(ck, "tile_checkpoint_read", what, path, rc);
    for (k = 0; k < ck->cfg.nfields; k++)
        if (tile__ckpt_block_sum(ck->cfg.fields[k]) !=
            sums[(int64_t)ck->rank * ck->cfg.nfields + k])
            return tile__ckpt_say(ck, TILE_ERR_CHECKPOINT, "tile_checkpoint_read: '%.120s': "
                                  "field %d's block on rank %d does not match its "
                                  "checksum: the file is damaged", path, k + 1, ck->rank);
    return TILE_OK;
}

/* Rank 0's header checked and sent to every rank (*w allocated there):
 * the verdict in ck->code on every rank. */
TILEHYBRID__COLD int tile__ckpt_share_header(tile_checkpoint *ck, MPI_File fh, const char *path,
                                             uint64_t **w, int64_t *hb)
{
    MPI_Offset fsize = 0;
    int code = TILE_OK, rc = MPI_File_get_size(fh, &fsize);
    int64_t nb;
    if (rc != MPI_SUCCESS)
        code = tile__ckpt_mpi_fail(ck, "tile_checkpoint_read", "MPI_File_get_size", path, rc);
    else if (ck->rank == 0)
        code = tile__ckpt_read_header(ck, fh, (int64_t)fsize, path, w, hb);
    if (tile__ckpt_agree(ck, code) != TILE_OK)
        return ck->code;
    tile__ckpt_words(ck->cfg.nfields, ck->size, ck->cfg.user_bytes, &nb);
    *hb = nb;
    if (ck->rank != 0 && (*w = (uint64_t *)TILEHYBRID_MALLOC((size_t)nb)) == NULL)
        code = TILE_ERR_NOMEM;
    if (code != TILE_OK)
        snprintf(ck->errmsg, sizeof ck->errmsg, "tile_checkpoint_read: rank %d: out of memory "
                 "for the header", ck->rank);
    if (tile__ckpt_agree(ck, code) != TILE_OK)
        return ck->code;
    if ((rc = MPI_Bcast(*w, (int)(nb / 8), MPI_UINT64_T, 0, ck->comm)) != MPI_SUCCESS)
        code = tile__ckpt_mpi_fail(ck, "tile_checkpoint_read", "MPI_Bcast", path, rc);
    return tile__ckpt_agree(ck, code);
}

/**
 * tile_checkpoint_read() - resume from checkpoint @path (NULL: the
 * configuration's PATH): every field's block, the step written (*@step)
 * and the program's bytes (into cfg.user).  Collective.  Refused, with
 * the reason, when the file is not this program's: another fingerprint,
 * process count, number or shape or grid of fields, user_bytes; a file
 * that is not a checkpoint, truncated, or whose header or a block does not
 * match its checksum.  On a refusal the fields' blocks may hold part of
 * the file: fill them again, or read the one before (PATH.1).  The ghost
 * layers are not read: the next map exchanges them.
 * Return: TILE_OK; TILE_ERR_NULL, TILE_ERR_ARG (a failed or destroyed
 * checkpoint), TILE_ERR_CHECKPOINT (refused), TILE_ERR_NOMEM or
 * TILE_ERR_MPI (MPI_File_open: no such file, say); the same on every
 * rank, with ck->errmsg.
 */
TILEHYBRID__COLD int tile_checkpoint_read(tile_checkpoint *ck, const char *path, int64_t *step)
{
    MPI_File fh = MPI_FILE_NULL;
    uint64_t *w = NULL;
    int64_t hb = 0;
    int rc, code = TILE_OK;
    if (ck == NULL)
        return TILE_ERR_NULL;
    if (ck->comm == MPI_COMM_NULL)
        return ck->code != TILE_OK ? ck->code : TILE_ERR_ARG;
    ck->code = TILE_OK;
    path = path != NULL ? path : ck->path;
    rc = MPI_File_open(ck->comm, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    if (rc != MPI_SUCCESS)
        code = tile__ckpt_mpi_fail(ck, "tile_checkpoint_read", "MPI_File_open", path, rc);
    if (tile__ckpt_agree(ck, code) == TILE_OK &&
        tile__ckpt_share_header(ck, fh, path, &w, &hb) == TILE_OK &&
        (ck->state_ix < 0 ||        /* the run's state: blocks of the file's size */
         tile__ckpt_state_make(ck, (size_t)(w[TILE__CK_FIELDS + ck->state_ix * TILE__CK_FWORDS +
                                              2] / (uint64_t)ck->size) * 4096, TILE_OK) ==
             TILE_OK) &&
        tile__ckpt_agree(ck, tile__ckpt_read_blocks(ck, fh, w, path)) == TILE_OK &&
        ck->state_ix >= 0)
        tile__ckpt_agree(ck, tile__ckpt_resume_take(ck));
    if (fh != MPI_FILE_NULL)
        (void)MPI_File_close(&fh);
    if (ck->code == TILE_OK) {
        ck->step_done = (int64_t)w[TILE__CK_STEP];
        if (step != NULL)
            *step = (int64_t)w[TILE__CK_STEP];
        if (ck->cfg.user_bytes > 0)
            memcpy(ck->cfg.user, w + TILE__CK_FIELDS + (int64_t)ck->cfg.nfields *
                   (TILE__CK_FWORDS + ck->size), ck->cfg.user_bytes);
    }
    TILEHYBRID_FREE(w);
    return ck->code;
}
#else
TILEHYBRID__COLD int tile__ckpt_mismatch(tile_checkpoint *ck, const uint64_t *w, int64_t fsize,
                                         const char *path);
TILEHYBRID__COLD int tile__ckpt_read_header(tile_checkpoint *ck, MPI_File fh, int64_t fsize,
                                            const char *path, uint64_t **w, int64_t *hb);
TILEHYBRID__COLD int tile__ckpt_read_blocks(tile_checkpoint *ck, MPI_File fh, const uint64_t *w,
                                            const char *path);
TILEHYBRID__COLD int tile__ckpt_share_header(tile_checkpoint *ck, MPI_File fh, const char *path,
                                             uint64_t **w, int64_t *hb);
TILEHYBRID__COLD int tile_checkpoint_read(tile_checkpoint *ck, const char *path, int64_t *step);
#endif
