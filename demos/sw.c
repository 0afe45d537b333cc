/* demos/sw.c -- Smith-Waterman local alignment with affine gaps (Gotoh),
 * tiled over MPI processes: a 2-D dynamic program whose cell reads its
 * diagonal neighbour, declared as a stencil.
 *
 * For sequences a (length n) and b (length m), 1 <= i <= n, 1 <= j <= m:
 *
 *   E(i,j) = max(E(i,j-1) - extend, H(i,j-1) - open)
 *   F(i,j) = max(F(i-1,j) - extend, H(i-1,j) - open)
 *   H(i,j) = max(0, H(i-1,j-1) + s(a_i, b_j), E(i,j), F(i,j))
 *
 * with H = 0 and E = F = minus infinity outside the matrix, s = match or
 * mismatch; a gap of length k costs open + (k-1) extend.  The result is the
 * best H and the (i, j) of its first occurrence in row-major order.  The
 * longer sequence runs along Z (the pipelined dimension), the shorter one
 * is cut among the processes.
 *
 *   mpiexec -n 2 ./demos/sw --random 2000,20000 --seed 1 --verify
 *   mpiexec -n 2 ./demos/sw --a x.fa --b y.fa --model funneled --threads 2 --json
 *
 * --checkpoint PATH (demos/checkpoint.h) checkpoints inside the run (it is
 * one plan's run): --restart PATH resumes it there.
 */
#include "../hybrid.h"
#include "agree.h"
#include "checkpoint.h"

#include <errno.h>
#include <limits.h>

#define SW_NEG (INT32_MIN / 4)  /* minus infinity: far below any score, no overflow */
#define SW_MAXLEN 100000000     /* longest sequence read (letters) */

/* One cell: the three matrices of Gotoh's recurrence. */
typedef struct sw_cell {
    int32_t h, e, f;
} sw_cell;

/* The scores: indices of sw_opts.score, and their options. */
enum { SW_MATCH, SW_MISMATCH, SW_OPEN, SW_EXTEND, SW_NSCORES };
static const char *const sw_score_names[SW_NSCORES] = { "--match", "--mismatch", "--gap-open",
                                                        "--gap-extend" };

typedef struct sw_opts {
    const char *fa, *fb;
    int64_t n, m, seed, tile_height;
    int score[SW_NSCORES];
    int model, threads, verify, json;
    demo_ckpt_opts ckpt;        /* --checkpoint, --checkpoint-every, --restart */
} sw_opts;

/* The best score and where it first occurs (1-based, row-major order). */
typedef struct sw_best {
    int64_t score, i, j;
} sw_best;

static void sw_better(sw_best *b, int64_t score, int64_t i, int64_t j)
{
    if (score > b->score || (score == b->score && (i < b->i || (i == b->i && j < b->j)))) {
        b->score = score;
        b->i = i;
        b->j = j;
    }
}

/* The key of cell (x, z) with score h for the declared MAXLOC reduction,
 * whose ties go to the first point in the plan's row-major (x, z) order.
 * Not swapped (x = i - 1, z = j - 1) that is the user's (i, j) order, and
 * the key is h itself.  Swapped (z = i - 1, x = j - 1) the user's order is
 * (z, x): the key orders by h, then by z (smaller first), and the tie-break
 * of equal keys (one z) takes the smaller x.  It is a double whose bit
 * pattern is h * 2^31 + (2^31 - 1 - z): 0 <= h < 2^31, 0 <= z < SW_MAXLEN
 * < 2^31, so below 2^62, a finite double (never a NaN) whose order is the
 * integer's (the reduction orders doubles by totalOrder and returns the
 * winner's bits unchanged): exact for every score and length, no rounding.
 * sw_key_score() takes h back.  (2^31 - 1 - z is written z ^ (2^31 - 1),
 * the same for 0 <= z < 2^31: not linear in z, so the compiler does not
 * carry it along the body's loop as an induction variable of its own.) */
static double sw_key(int32_t h, int64_t z)
{
    uint64_t k = ((uint64_t)(uint32_t)h << 31) | ((uint64_t)z ^ INT32_MAX);
    double v;
    memcpy(&v, &k, sizeof v);
    return v;
}

static int64_t sw_key_score(double v, int swapped)
{
    uint64_t k;
    if (!swapped)
        return (int64_t)v;
    memcpy(&k, &v, sizeof k);
    return (int64_t)(k >> 31);
}

static uint64_t sw_rng = 88172645463325252ull;
static char sw_letter(void)
{
    sw_rng ^= sw_rng << 13;
    sw_rng ^= sw_rng >> 7;
    sw_rng ^= sw_rng << 17;
    return "ACGT"[sw_rng >> 62];
}

/* Append letter c to the sequence s (n letters, room for cap). */
static int sw_push(char **s, int64_t *n, int64_t *cap, char c)
{
    if (*n == *cap) {
        char *t;
        int64_t ncap = *cap ? 2 * *cap : 4096;
        if ((t = (char *)realloc(*s, (size_t)ncap)) == NULL)
            return 0;
        *s = t;
        *cap = ncap;
    }
    (*s)[(*n)++] = (char)(c >= 'a' && c <= 'z' ? c - 32 : c);
    return 1;
}

/* Read a FASTA file of one record: the letters of every line not starting
 * with '>' (spaces, tabs and CR ignored); a second '>' header, after
 * letters, is refused (an alignment of two sequences takes one record
 * from each file).  A NUL byte (not a text file) or any
 * other character than a letter in a sequence line is refused, naming the
 * line and the byte.  Returns the sequence (malloc) or NULL with a message
 * in err. */
static char *sw_read_fasta(const char *opt, const char *path, int64_t *len, char *err,
                           size_t errlen)
{
    FILE *f = fopen(path, "rb");
    char *s = NULL;
    int64_t n = 0, cap = 0, line = 1, col = 0;
    int c, header = 0;
    if (f == NULL) {
        snprintf(err, errlen, "%s: cannot open '%s': %s", opt, path, strerror(errno));
        return NULL;
    }
    err[0] = '\0';
    while (err[0] == '\0' && (c = getc(f)) != EOF) {
        col++;
        if (c == '\n') {
            line++;
            col = 0;
            header = 0;
        } else if (c == '\0') {
            snprintf(err, errlen, "%s '%s': line %lld, byte %lld: a NUL byte (not a text file)",
                     opt, path, (long long)line, (long long)col);
        } else if (col == 1 && c == '>' && n > 0) {
            snprintf(err, errlen, "%s '%s': line %lld: a second record ('>'): give one sequence "
                     "per file", opt, path, (long long)line);
        } else if (col == 1 && c == '>') {
            header = 1;
        } else if (header || c == '\r' || c == ' ' || c == '\t') {
            continue;
        } else if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))) {
            snprintf(err, errlen, "%s '%s': line %lld, byte %lld: '%c' (byte %d) is not a letter",
                     opt, path, (long long)line, (long long)col, c >= 32 && c < 127 ? c : '?', c);
        } else if (n == SW_MAXLEN) {
            snprintf(err, errlen, "%s '%s': more than %d letters", opt, path, SW_MAXLEN);
        } else if (!sw_push(&s, &n, &cap, (char)c)) {
            snprintf(err, errlen, "%s '%s': out of memory (%lld bytes)", opt, path,
                     (long long)(2 * cap));
        }
    }
    if (err[0] == '\0' && ferror(f))
        snprintf(err, errlen, "%s '%s': read error: %s", opt, path, strerror(errno));
    fclose(f);
    if (err[0] == '\0' && n == 0)
        snprintf(err, errlen, "%s '%s': no sequence", opt, path);
    if (err[0] != '\0') {
        free(s);
        return NULL;
    }
    *len = n;
    return s;
}

/* The options with a value (sw_option reads them). */
static const char *const sw_valued[] = { "--a", "--b", "--random", "--seed", "--tile-height",
                                         "--model", "--threads", "--match", "--mismatch",
                                         "--gap-open", "--gap-extend", DEMO_CKPT_OPTIONS };
#define SW_NVALUED ((int)(sizeof sw_valued / sizeof sw_valued[0]))

/* One option with its value; 0 or 2 (message in err). */
static int sw_option(void *ctx, const char *a, const char *v, char *err, size_t errlen)
{
    sw_opts *o = (sw_opts *)ctx;
    int64_t x;
    int rc = demo_ckpt_option(&o->ckpt, a, v, err, errlen);
    if (rc >= 0)
        return rc;
    if (strcmp(a, "--a") == 0)
        o->fa = v;
    else if (strcmp(a, "--b") == 0)
        o->fb = v;
    else if (strcmp(a, "--random") == 0) {
        int rc = demo_pair(v, 1, SW_MAXLEN, &o->n, &o->m);
        if (rc == 1)
            return demo_msg(err, errlen, "--random '%s': expected N,M (two lengths >= 1)", v);
        if (rc == 2)
            return demo_msg(err, errlen, "--random '%s': expected N,M, two lengths in "
                            "1..100000000", v);
    } else if (strcmp(a, "--seed") == 0) {
        if (tilehybrid_parse_i64(v, 0, INT64_MAX, &o->seed) != TILEHYBRID_OK)
            return demo_msg(err, errlen, "--seed '%s': expected a whole number >= 0", v);
    } else if (strcmp(a, "--tile-height") == 0) {
        if (tilehybrid_parse_i64(v, 1, INT64_MAX, &o->tile_height) != TILEHYBRID_OK)
            return demo_msg(err, errlen, "--tile-height '%s': expected a whole number >= 1", v);
    } else if ((rc = demo_model_threads(a, v, &o->model, &o->threads, err, errlen)) >= 0) {
        return rc;
    } else {
        int k;
        for (k = 0; k < SW_NSCORES && strcmp(a, sw_score_names[k]) != 0; k++)
            ;
        if (k == SW_NSCORES)
            return demo_msg(err, errlen, "unknown option '%s' (see --help)", a);
        if (tilehybrid_parse_i64(v, -1000000, 1000000, &x) != TILEHYBRID_OK)
            return demo_msg(err, errlen, "%s: expected a whole number in -1000000..1000000", a);
        o->score[k] = (int)x;
    }
    return 0;
}

/* Parse argv: 0, 1 (--help) or 2 (message in err). */
static int sw_parse(int argc, char **argv, sw_opts *o, char *err, size_t errlen)
{
    static const sw_opts defaults = { .n = 2000, .m = 20000, .seed = 1, .tile_height = 256,
                                      .score = { 2, -1, 3, 1 },
                                      .model = TILE_MODEL_MPI, .threads = 1 };
    int rc;
    *o = defaults;
    if ((rc = demo_options_vj(argc, argv, sw_valued, SW_NVALUED, &o->verify, &o->json,
                              sw_option, o, err, errlen)) != 0)
        return rc;
    if ((o->fa == NULL) != (o->fb == NULL))
        return demo_msg(err, errlen, "%s", "give both --a and --b, or neither (--random)");
    if (demo_ckpt_check(&o->ckpt, err, errlen) != 0)
        return 2;
    return demo_check_threads(o->model, o->threads, err, errlen);
}

/* The plain double loop, row by row: the best score and its first (i, j). */
static sw_best sw_seq(const char *a, int64_t n, const char *b, int64_t m, const sw_opts *o)
{
    sw_best best = { 0, 0, 0 };
    sw_cell *prev = (sw_cell *)malloc(sizeof(sw_cell) * (size_t)(m + 1));
    sw_cell *cur = (sw_cell *)malloc(sizeof(sw_cell) * (size_t)(m + 1));
    int32_t const ext = o->score[SW_EXTEND], opn = o->score[SW_OPEN];
    int32_t const mat = o->score[SW_MATCH], mis = o->score[SW_MISMATCH];
    int64_t i, j;
    best.score = -1;
    if (prev == NULL || cur == NULL) {   /* (a score of -1: --verify fails) */
        demo_nomem("sw", 0, "--verify's plain loop (two rows)", 2 * (m + 1),
                   (int64_t)sizeof(sw_cell));
        free(prev);
        free(cur);
        return best;
    }
    for (j = 0; j <= m; j++) {
        prev[j].h = 0;
        prev[j].e = prev[j].f = SW_NEG;
    }
    for (i = 1; i <= n; i++) {
        sw_cell *t;
        cur[0].h = 0;
        cur[0].e = cur[0].f = SW_NEG;
        for (j = 1; j <= m; j++) {
            int32_t e = cur[j - 1].e - ext, e2 = cur[j - 1].h - opn;
            int32_t f = prev[j].f - ext, f2 = prev[j].h - opn;
            int32_t h = prev[j - 1].h + (a[i - 1] == b[j - 1] ? mat : mis);
            e = e > e2 ? e : e2;
            f = f > f2 ? f : f2;
            h = h > 0 ? h : 0;
            h = h > e ? h : e;
            h = h > f ? h : f;
            cur[j].h = h;
            cur[j].e = e;
            cur[j].f = f;
            sw_better(&best, h, i, j);
        }
        t = prev;
        prev = cur;
        cur = t;
    }
    free(prev);
    free(cur);
    return best;
}

/* Can the 32-bit cells hold every score?  A cell moves by at most the
 * largest |score| per step along a path of at most n + m steps (gaps that
 * pay, with a negative penalty, included): 0, or 2 (message) when that
 * bound passes 2^29, far below INT32_MAX and above SW_NEG's reach, where
 * the plain loop and the tiled one would overflow alike and agree. */
static int sw_fits(const sw_opts *o, int64_t n, int64_t m, char *err, size_t errlen)
{
    int64_t s = 0, bound;
    int k;
    for (k = 0; k < SW_NSCORES; k++) {
        int64_t a = o->score[k] < 0 ? -(int64_t)o->score[k] : o->score[k];
        s = a > s ? a : s;
    }
    if (s == 0 || n + m <= ((int64_t)1 << 29) / s)  /* (n + m) s <= 2^29, no overflow */
        return 0;
    bound = (n + m) > INT64_MAX / s ? INT64_MAX : (n + m) * s;
    snprintf(err, errlen, "the scores could reach %lld ((n + m) = %lld steps of up to %lld), "
             "past what the 32-bit cells hold (2^29 = 536870912): use smaller scores or "
             "shorter sequences", (long long)bound, (long long)(n + m), (long long)s);
    return 2;
}

/* The sequences: read (every rank) or generated; 0 or 2 (message). */
static int sw_sequences(const sw_opts *o, char **a, int64_t *n, char **b, int64_t *m,
                        char *err, size_t errlen)
{
    int64_t k;
    if (o->fa != NULL) {
        if ((*a = sw_read_fasta("--a", o->fa, n, err, errlen)) == NULL ||
            (*b = sw_read_fasta("--b", o->fb, m, err, errlen)) == NULL)
            return 2;
        return 0;
    }
    *n = o->n;
    *m = o->m;
    *a = (char *)malloc((size_t)*n);
    *b = (char *)malloc((size_t)*m);
    if (*a == NULL || *b == NULL) {
        snprintf(err, errlen, "--random %lld,%lld: out of memory for the sequences",
                 (long long)*n, (long long)*m);
        return 2;
    }
    sw_rng = 88172645463325252ull ^ ((uint64_t)o->seed * 0x9e3779b97f4a7c15ull);
    if (sw_rng == 0)
        sw_rng = 1;
    for (k = 0; k < *n; k++)
        (*a)[k] = sw_letter();
    for (k = 0; k < *m; k++)
        (*b)[k] = sw_letter();
    return 0;
}

/* Thread t's greatest h fed to the reduction so far (sw_run), on a cache
 * line of its own (a thread writes its own at each new best): one for
 * each thread that --threads allows (demo_model_threads: 1..1024). */
#define SW_MAXTHREADS 1024
typedef struct sw_gate {
    int32_t h;
    char pad[64 - sizeof(int32_t)];
} sw_gate;
static sw_gate sw_gates[SW_MAXTHREADS];

/* A point (x, z) of the plan: Gotoh's H, and the two gap matrices named
 * by the axis they run along, gz (from (x, z - 1)) and gx (from (x - 1,
 * z)): E and F when a is the shorter sequence (x along a), F and E when
 * the plan swapped the axes.  H's recurrence does not tell E from F, so
 * one body serves both orientations. */
typedef struct sw_point {
    int32_t h, gz, gx;
} sw_point;

static void sw_edge(void *out, const int64_t *c, void *ctx)
{
    sw_point *p = (sw_point *)out;
    (void)c;
    (void)ctx;
    p->h = 0;
    p->gz = p->gx = SW_NEG;
}

/* SW_OPAQUE(v): v's value unknown to the compiler from here (GCC, clang;
 * no instruction), so that it does not reassociate H's maximum: it would
 * put gx, the loop's chain, first and two more maxima on the chain. */
#if defined(__GNUC__)
#define SW_OPAQUE(v) __asm__("" : "+r"(v))
#else
#define SW_OPAQUE(v) ((void)0)
#endif

/* Point (x, z) from w = (x, z - 1), u = (x - 1, z) and the diagonal's h
 * plus the substitution score (hd). */
static inline sw_point sw_point_of(sw_point w, sw_point u, int32_t hd, int32_t ext, int32_t opn)
{
    sw_point c;
    int32_t gz = w.gz - ext, gz2 = w.h - opn, gx = u.gx - ext, gx2 = u.h - opn;
    gz = gz > gz2 ? gz : gz2;
    gx = gx > gx2 ? gx : gx2;
    hd = hd > 0 ? hd : 0;
    hd = hd > gz ? hd : gz;
    SW_OPAQUE(hd);
    hd = hd > gx ? hd : gx;
    c.h = hd;
    c.gz = gz;
    c.gx = gx;
    return c;
}

/* sw_run is kept out of main (GCC, clang): in a function of its own the
 * inner loop keeps more of its values in registers (sw 8000 x 20000, one
 * process, GCC -O2: 0.64-0.70 s against 0.76-0.84 s inlined). */
#if defined(__GNUC__)
#define SW_NOINLINE __attribute__((noinline))
#else
#define SW_NOINLINE
#endif

/* The alignment on the plan: x along the shorter sequence s (length X),
 * Z along the longer one l.  The best score and its first (i, j): the
 * declared MAXLOC reduction best.  One body for both orientations
 * (sw_point); only the key of a point fed to best tells them apart.  In
 * the plan's order (planes, x innermost: N = 1 has no hyperplane order,
 * so no SIMD loop either) the point (x - 1, z) was computed just before
 * (x, z): its gx and h are the loop's chain, so they enter H's maximum
 * last.  A point is fed to best only when its h is at least its thread's
 * greatest so far (gate[TILE_THREAD]): one below cannot be the thread's
 * best (its key, h or sw_key(), is smaller than that point's), an equal
 * one may be by the tie-break, so the reduction gives the score and first
 * end that feeding every point gives (its count is smaller). */
SW_NOINLINE static void sw_run(tile_plan *plan, const char *s, const char *l, int swapped,
                               const sw_opts *o, tile_reduction *best, sw_gate *gate)
{
    int32_t const ext = o->score[SW_EXTEND], opn = o->score[SW_OPEN];
    int32_t const mat = o->score[SW_MATCH], mis = o->score[SW_MISMATCH];
    HYBRID_RUN(plan, it, {
        int32_t const sub = s[tile_coord(&it, 0)] == l[tile_coord(&it, 1)] ? mat : mis;
        sw_point const c = sw_point_of(TILE_AT(sw_point, it, 0, -1), TILE_AT(sw_point, it, -1, 0),
                                       TILE_AT(sw_point, it, -1, -1).h + sub, ext, opn);
        int32_t *const g = &gate[TILE_THREAD(it)].h;
        int32_t const h = c.h;
        TILE_AT(sw_point, it, 0, 0) = c;
        if (h >= *g) {
            *g = h;
            tile_reduce(&it, best, swapped ? sw_key(h, tile_coord(&it, 1)) : (double)h);
        }
    });
}

static void sw_help(void)
{
    printf("usage: mpiexec -n P ./demos/sw [options]\n"
           "Smith-Waterman local alignment with affine gaps (Gotoh), tiled over P processes.\n"
           "Prints the best score and the 1-based end (i, j) of its first occurrence in\n"
           "row-major order (i along a, j along b).\n"
           "  --a FILE --b FILE      the two sequences (FASTA), or\n"
           "  --random N,M           two random DNA sequences of lengths N and M "
           "(default 2000,20000)\n"
           "  --seed S               the random sequences' seed (default 1)\n"
           "  --match 2 --mismatch -1 --gap-open 3 --gap-extend 1   scores (the defaults)\n"
           "  --model M              mpi, fine, funneled or multiple (default mpi)\n"
           "  --threads T            threads per process (default 1)\n"
           "  --tile-height z        along the longer sequence (default 256)\n"
           "  --verify               compare with the plain double loop (rank 0, after\n"
           "                         the run; its time is plain_seconds)\n"
           "  --json                 one JSON object: score, end, seconds, cells_per_second\n"
           DEMO_CKPT_HELP
           "                     (inside the run: Nsteps counts its tile steps)\n"
           "Exit status: 0 ok, 1 --verify mismatch or failed run, 2 bad arguments,\n"
           "75 stopped on SIGUSR1 after a checkpoint (run again with --restart).\n");
}

/* The result of the declared reduction (every rank has it): the best
 * score and its 1-based (i, j); score -1 if no cell counted (a failed run). */
static sw_best sw_result(const tile_reduction *best, int swapped)
{
    sw_best out = { -1, 0, 0 };
    if (best->count > 0) {
        out.score = sw_key_score(best->value, swapped);
        out.i = 1 + best->coord[swapped ? 1 : 0];
        out.j = 1 + best->coord[swapped ? 0 : 1];
    }
    return out;
}

/* The options every rank must share (after reading the sequences: their
 * lengths too, in case a file differs between nodes). */
static int sw_agreed(const sw_opts *o, int64_t n, int64_t m, demo_arg *v)
{
    int k = 0, i;
    v[k++] = demo_arg_text("--a", o->fa);
    v[k++] = demo_arg_text("--b", o->fb);
    v[k++] = demo_arg_int(o->fa != NULL ? "the length of --a" : "--random (N)", n);
    v[k++] = demo_arg_int(o->fa != NULL ? "the length of --b" : "--random (M)", m);
    v[k++] = demo_arg_int("--seed", o->seed);
    v[k++] = demo_arg_int("--tile-height", o->tile_height);
    for (i = 0; i < SW_NSCORES; i++)
        v[k++] = demo_arg_int(sw_score_names[i], o->score[i]);
    v[k++] = demo_arg_model(o->model);
    v[k++] = demo_arg_int("--threads", o->threads);
    v[k++] = demo_arg_flag("--verify", o->verify);
    v[k++] = demo_arg_flag("--json", o->json);
    v[k++] = demo_arg_flag("--checkpoint", o->ckpt.path != NULL);
    v[k++] = demo_arg_flag("--restart", o->ckpt.restart != NULL);
    v[k++] = demo_arg_int("--checkpoint-every (steps)", o->ckpt.every_steps);
    v[k++] = demo_arg_real("--checkpoint-every (seconds)", o->ckpt.every_seconds);
    return k;
}

/* Parse, start MPI, read the sequences, and agree on all of it across
 * ranks (one collective).  -1: run; else the exit status (MPI finalized,
 * rank 0 printed the help or the one message). */
static int sw_start(int *argc, char ***argv, sw_opts *o, char **a, int64_t *n, char **b,
                    int64_t *m, int *rank)
{
    char err[DEMO_MSGLEN] = "";
    demo_arg v[DEMO_AGREE_MAX];
    int rc = sw_parse(*argc, *argv, o, err, sizeof err), provided, verdict;
    if (hybrid_init(argc, argv, rc ? TILE_MODEL_MPI : o->model, rc ? 1 : o->threads,
                    &provided) != TILE_OK) {
        fprintf(stderr, "sw: MPI_Init_thread failed\n");
        return 1;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    if (rc == 0)
        rc = sw_sequences(o, a, n, b, m, err, sizeof err);
    if (rc == 0)
        rc = sw_fits(o, *n, *m, err, sizeof err);
    verdict = demo_agree_help("sw", rc, err, v, sw_agreed(o, *n, *m, v), sw_help);
    if (verdict != DEMO_AGREE_GO) {
        free(*a);
        free(*b);
    }
    return demo_agree_end(verdict);
}

/* Rank 0's report; the exit status (1 on a --verify mismatch). */
static int sw_report(const tile_plan *plan, const sw_opts *o, int64_t n, int64_t m,
                     sw_best res, sw_best ref, double secs, double plain)
{
    const char *verdict = !o->verify ? NULL : (ref.score == res.score && ref.i == res.i &&
                                               ref.j == res.j) ? "ok" : "MISMATCH";
    double cps = secs > 0 ? (double)n * (double)m / secs : 0.0;
    if (o->json)
        printf("{\"demo\": \"sw\", \"lengths\": [%lld, %lld], \"model\": \"%s\", "
               "\"processes\": %d, \"threads\": %d, \"score\": %lld, \"end\": [%lld, %lld], "
               "\"seconds\": %.6f, \"cells_per_second\": %.0f", (long long)n,
               (long long)m, tile_model_name(o->model), plan->size, o->threads,
               (long long)res.score, (long long)res.i, (long long)res.j, secs, cps);
    if (o->json && verdict)
        printf(", \"verify\": \"%s\", \"plain_seconds\": %.6f", verdict, plain);
    if (o->json)
        printf("}\n");
    else {
        printf("sw %lld x %lld, model %s, %d process%s x %d thread%s: best score %lld "
               "ending at (%lld, %lld)\ntime %.3f s, %.3g cells per second\n",
               (long long)n, (long long)m, tile_model_name(o->model), plan->size,
               plan->size == 1 ? "" : "es", o->threads, o->threads == 1 ? "" : "s",
               (long long)res.score, (long long)res.i, (long long)res.j, secs, cps);
        if (verdict)
            printf("verify: %s (plain loop: score %lld at (%lld, %lld), %.3f s)\n", verdict,
                   (long long)ref.score, (long long)ref.i, (long long)ref.j, plain);
    }
    return verdict != NULL && verdict[0] != 'o';
}

/* What changes the alignment's numbers: the sequences and the scores
 * (the checkpoints' fingerprint). */
static uint64_t sw_fingerprint(const char *a, int64_t n, const char *b, int64_t m,
                               const sw_opts *o)
{
    uint64_t h = demo_ckpt_hash(0xcbf29ce484222325ull, a, (size_t)n);
    h = demo_ckpt_hash(h, "\n", 1);
    h = demo_ckpt_hash(h, b, (size_t)m);
    return demo_ckpt_hash(h, o->score, sizeof o->score);
}

int main(int argc, char **argv)
{
    sw_opts o;
    demo_ckpt ck;
    int64_t start = 0;
    tile_config cfg;
    tile_plan plan;
    tile_reduction best;
    sw_best res, ref = { -1, 0, 0 };
    char *a = NULL, *b = NULL;
    int64_t n = 0, m = 0;
    int k, rank = 0, rc = sw_start(&argc, &argv, &o, &a, &n, &b, &m, &rank), failed, nomem;
    double t0, secs, plain = 0;
    if (rc >= 0)
        return rc;
    memset(&ck, 0, sizeof ck);
    tile_config_init(&cfg, 1);
    cfg.extent[0] = n <= m ? n : m;           /* the shorter sequence is cut */
    cfg.zlen = n <= m ? m : n;                /* the longer one is pipelined */
    tile_config_stencil(&cfg, "-1,-1 0,-1 -1,0", NULL);
    cfg.elem_size = sizeof(sw_point);
    cfg.tile_height = o.tile_height;
    cfg.model = o.model;
    cfg.threads = o.threads;
    cfg.boundary = sw_edge;
    if (tile_plan_create(&plan, MPI_COMM_WORLD, &cfg) != TILE_OK) {
        if (rank == 0)
            fprintf(stderr, "sw: %s\n", plan.errmsg);
        tile_plan_destroy(&plan);
        free(a);
        free(b);
        MPI_Finalize();
        return 2;
    }
    for (k = 0; k < o.threads; k++)
        sw_gates[k].h = -1;     /* below every h: a thread's first point is fed */
    nomem = demo_reduction_start("sw", &plan, &best, TILE_REDUCE_MAXLOC,
                                 "the best score's per-thread slots", o.threads, &t0);
    if (!nomem && demo_ckpt_begin_plan(&ck, "sw", &o.ckpt, &plan, NULL, 0, NULL, 0,
                                       sw_fingerprint(a, n, b, m, &o), &start, rank) != 0)
        nomem = 1;      /* (rank 0 said why: the run does not start) */
    if (!nomem)
        sw_run(&plan, n <= m ? a : b, n <= m ? b : a, n > m, &o, &best, sw_gates);
    secs = demo_slowest(t0);
    if ((rc = demo_ckpt_plan_end(&ck, "sw", rank)) >= 0) {
        free(a);
        free(b);
        tile_plan_destroy(&plan);
        MPI_Finalize();
        return rc;
    }
    res = sw_result(&best, n > m);
    failed = nomem || tile_plan_status(&plan) != TILE_OK;
    if (rank == 0 && o.verify && !failed) {
        plain = MPI_Wtime();
        ref = sw_seq(a, n, b, m, &o);
        plain = MPI_Wtime() - plain;
    }
    if (rank == 0 && failed && !nomem)   /* (out of memory: that rank said so) */
        fprintf(stderr, "sw: run failed: %s\n", plan.errmsg);
    else if (rank == 0)
        failed = sw_report(&plan, &o, n, m, res, ref, secs, plain);
    MPI_Bcast(&failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
    free(a);
    free(b);
    tile_plan_destroy(&plan);
    MPI_Finalize();
    return failed;
}
