/* demos/agree.h -- every rank of a demo agrees on its command line before
 * any rank leaves (a helper for the demos, not an installed header).
 *
 * Each rank reads its own argv: under `mpiexec -n 1 ./adi ARGS : -n 1 ./adi
 * OTHER`, or with a file missing on one node, the ranks can disagree.  A
 * rank that simply left after its own error would leave the others waiting
 * in their first collective for ever.  So every rank parses, describes the
 * options it read as a list of demo_arg, and calls demo_agree() (one
 * tilehybrid_agree(): one collective) before anything else:
 *
 *     char msg[DEMO_MSGLEN] = "";
 *     int code = my_parse(argc, argv, &o, msg);      // 0, 1 (--help) or 2
 *     demo_arg v[2];
 *     v[0] = demo_arg_int("--items", o.n);
 *     v[1] = demo_arg_word("--method", o.method, method_names);
 *     switch (demo_agree("mydemo", code, msg, v, 2)) {
 *     case DEMO_AGREE_HELP: if (rank == 0) help();  // and leave with 0
 *     ...
 *
 * The lowest rank that failed wins: rank 0 prints "<demo>: rank R: <its
 * message>" once; otherwise a value that differs between ranks is named
 * with two of its values as the user wrote them; otherwise --help on every
 * rank asks for the help.  The verdict is the same on every rank.
 */
#ifndef TILEHYBRID_DEMOS_AGREE_H
#define TILEHYBRID_DEMOS_AGREE_H

#include "../tilehybrid.h"
#include "../tools/options.h"   /* the option loop of every program */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The size of the message buffers (the same on every rank). */
#define DEMO_MSGLEN 512
/* The most values demo_agree() compares (a few more than any demo has). */
#define DEMO_AGREE_MAX 40

/* demo_agree()'s verdicts, the same on every rank. */
enum {
    DEMO_AGREE_GO = -1,      /* run */
    DEMO_AGREE_HELP = 0,     /* --help on every rank: rank 0 prints it, exit 0 */
    DEMO_AGREE_FAILED = 1,   /* the agreement itself failed (MPI): exit 1 */
    DEMO_AGREE_BAD = 2       /* bad or differing arguments, rank 0 said which: exit 2 */
};

/**
 * demo_help_written() - after printing the help: did it reach stdout?
 * @prog: the demo's name for the message.
 * Return: 0, or 1 (the exit status) after "<prog>: writing the help:
 * <reason>" on stderr (stdout a full disk, a closed pipe).
 */
static inline int demo_help_written(const char *prog)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "%s: writing the help: %s\n", prog, strerror(errno));
        return 1;
    }
    return 0;
}

/* How a demo_arg's 64 bits read back. */
enum { DEMO_ARG_INT, DEMO_ARG_REAL, DEMO_ARG_WORD, DEMO_ARG_FLAG, DEMO_ARG_TEXT };

/**
 * struct demo_arg - one value of the command line that every rank must share.
 * @name:  the option as the user writes it ("--space", "--space (Z)").
 * @kind:  DEMO_ARG_INT (a whole number), _REAL (a double), _WORD (an index
 *         into @words), _FLAG (given or not), _TEXT (a hash of a text: its
 *         values are not shown).
 * @v:     the value as 64 bits (DEMO_ARG_NOT_GIVEN: an optional value
 *         left out).
 * @words: DEMO_ARG_WORD: the names of the values.
 * @optional: 1 for demo_arg_int_opt() and demo_arg_real_opt(): @v may be
 *         DEMO_ARG_NOT_GIVEN, shown as "not given".
 */
typedef struct demo_arg {
    const char *name;
    int kind;
    uint64_t v;
    const char *const *words;
    int optional;
} demo_arg;

/* The value of an optional option left out: no whole number an option
 * takes (-1) and no double a parser returns (a NaN), so "not given" differs
 * from every value given, 0 included. */
#define DEMO_ARG_NOT_GIVEN UINT64_MAX

static inline demo_arg demo_arg_make(const char *name, int kind, uint64_t v,
                                     const char *const *words)
{
    demo_arg a = { name, kind, v, words, 0 };
    return a;
}

static inline demo_arg demo_arg_int(const char *name, int64_t x)
{
    return demo_arg_make(name, DEMO_ARG_INT, (uint64_t)x, NULL);
}

static inline demo_arg demo_arg_real(const char *name, double x)
{
    return demo_arg_make(name, DEMO_ARG_REAL, tilehybrid_bits(x), NULL);
}

/* An optional whole number (>= 0 when given): "not given" when !given. */
static inline demo_arg demo_arg_int_opt(const char *name, int given, int64_t x)
{
    demo_arg a = demo_arg_make(name, DEMO_ARG_INT, given ? (uint64_t)x : DEMO_ARG_NOT_GIVEN,
                               NULL);
    a.optional = 1;
    return a;
}

/* An optional double: "not given" when !given. */
static inline demo_arg demo_arg_real_opt(const char *name, int given, double x)
{
    demo_arg a = demo_arg_make(name, DEMO_ARG_REAL, given ? tilehybrid_bits(x)
                                                          : DEMO_ARG_NOT_GIVEN, NULL);
    a.optional = 1;
    return a;
}

static inline demo_arg demo_arg_word(const char *name, int i, const char *const *words)
{
    return demo_arg_make(name, DEMO_ARG_WORD, (uint64_t)i, words);
}

static inline demo_arg demo_arg_flag(const char *name, int on)
{
    return demo_arg_make(name, DEMO_ARG_FLAG, (uint64_t)(on != 0), NULL);
}

/* --model: the index of tiling.h's enum tile_model (0 when out of range:
 * a bad value is refused before it is agreed on). */
static inline demo_arg demo_arg_model(int model)
{
    static const char *const models[] = { "mpi", "fine", "funneled", "multiple" };
    return demo_arg_word("--model", model >= 0 && model < 4 ? model : 0, models);
}

/* --grid's words, by tiling.h's enum tile_grid_policy. */
static const char *const demo_grid_words[3] = { "comm", "latency", "time" };

/* The grid policy --grid's word v names (enum tile_grid_policy), or -1. */
static inline int demo_grid_word(const char *v)
{
    int p;
    for (p = 0; p < 3; p++)
        if (strcmp(v, demo_grid_words[p]) == 0)
            return p;
    return -1;
}

/* --grid's policy: the index of tiling.h's enum tile_grid_policy (0 when
 * out of range). */
static inline demo_arg demo_arg_grid(int policy)
{
    return demo_arg_word("--grid", policy >= 0 && policy < 3 ? policy : 0, demo_grid_words);
}

/* A text (a file name, a list): FNV-1a of its bytes; NULL (not given)
 * differs from every text. */
static inline demo_arg demo_arg_text(const char *name, const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; s != NULL && *s != '\0'; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return demo_arg_make(name, DEMO_ARG_TEXT, s == NULL ? 0 : h, NULL);
}

/* A value of a as the user wrote it, into out. */
static inline void demo_arg_show(const demo_arg *a, uint64_t v, char *out, size_t len)
{
    if (a->optional && v == DEMO_ARG_NOT_GIVEN) {
        snprintf(out, len, "not given");
        return;
    }
    switch (a->kind) {
    case DEMO_ARG_INT:
        snprintf(out, len, "%lld", (long long)(int64_t)v);
        break;
    case DEMO_ARG_REAL:
        tilehybrid_double_text(tilehybrid_from_bits(v), out, len);
        break;
    case DEMO_ARG_WORD:
        snprintf(out, len, "%s", a->words[v]);
        break;
    case DEMO_ARG_FLAG:
        snprintf(out, len, "%s", v ? "given" : "not given");
        break;
    default:
        snprintf(out, len, "%s", v ? "one text" : "not given");
    }
}

/* The message for value a that differs between ranks (lo and hi: two of
 * its values). */
static inline void demo_agree_differs(const char *prog, const demo_arg *a, uint64_t lo,
                                      uint64_t hi)
{
    char s1[64], s2[64];
    if (a->kind == DEMO_ARG_TEXT) {
        fprintf(stderr, "%s: %s differs between ranks (give every rank the same options)\n",
                prog, a->name);
        return;
    }
    if (a->optional && hi == DEMO_ARG_NOT_GIVEN) {   /* "not given" first */
        hi = lo;
        lo = DEMO_ARG_NOT_GIVEN;
    }
    if (a->kind == DEMO_ARG_INT) {  /* lo and hi are unsigned patterns: order them */
        int64_t x = (int64_t)lo, y = (int64_t)hi;
        demo_arg_show(a, (uint64_t)(x < y ? x : y), s1, sizeof s1);
        demo_arg_show(a, (uint64_t)(x < y ? y : x), s2, sizeof s2);
    } else {
        demo_arg_show(a, lo, s1, sizeof s1);
        demo_arg_show(a, hi, s2, sizeof s2);
    }
    fprintf(stderr, "%s: %s differs between ranks (%s on one, %s on another; give every "
            "rank the same options)\n", prog, a->name, s1, s2);
}

/**
 * demo_agree() - one collective: did a rank fail to read its command line,
 * and do all ranks hold the same options?
 * @prog: the demo's name, for the messages.
 * @code: this rank's verdict: 0 go on, 1 --help, 2 bad arguments.
 * @msg:  this rank's message when code is 2 (DEMO_MSGLEN bytes, without
 *        the demo's name or the rank: demo_agree() adds them).
 * @v, @n: the values every rank must share (n <= DEMO_AGREE_MAX); --help
 *        is compared too.
 *
 * Rank 0 prints the one message (on stderr).  MPI must be initialised.
 * An MPI call of the agreement that fails on this rank cannot be agreed
 * on: tilehybrid_mpi_failed() names the call and the rank and aborts the
 * job (MPI_Abort, error code 1).
 * Return: DEMO_AGREE_GO, _HELP or _BAD, the same on every rank
 * (_FAILED only if MPI_Abort returns).
 */
static inline int demo_agree(const char *prog, int code, char *msg, const demo_arg *v, int n)
{
    uint64_t val[DEMO_AGREE_MAX + 1];
    tilehybrid_agreement ag;
    int rank = 0, i;
    if (n > DEMO_AGREE_MAX)
        n = DEMO_AGREE_MAX;
    /* --help first (the first value that differs is named); with --help
     * the other options do not matter */
    val[0] = (uint64_t)(code == 1);
    for (i = 0; i < n; i++)
        val[i + 1] = code == 1 ? 0 : v[i].v;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    /* any positive code marks a failed rank: 2, the exit status */
    if ((i = tilehybrid_agree(MPI_COMM_WORLD, code == 2 ? 2 : 0, val, n + 1, msg, DEMO_MSGLEN,
                              &ag)) != MPI_SUCCESS) {
        /* this rank's alone (MPI_COMM_WORLD may return errors): the others
         * would wait for it forever, so end the job, naming the call and
         * the rank */
        tilehybrid_mpi_failed(MPI_COMM_WORLD, i, ag.call, DEMO_AGREE_FAILED,
                              "in %s's agreement on the command line (demo_agree)", prog);
        return DEMO_AGREE_FAILED;
    }
    if (ag.code != 0) {
        if (rank == 0)
            fprintf(stderr, "%s: rank %d: %s\n", prog, ag.rank, msg);
        return DEMO_AGREE_BAD;
    }
    if (ag.index == 0) {
        if (rank == 0)
            fprintf(stderr, "%s: --help given on some ranks only (give every rank the same "
                    "options)\n", prog);
        return DEMO_AGREE_BAD;
    }
    if (ag.index > 0) {
        if (rank == 0)
            demo_agree_differs(prog, &v[ag.index - 1], ag.lo, ag.hi);
        return DEMO_AGREE_BAD;
    }
    return code == 1 ? DEMO_AGREE_HELP : DEMO_AGREE_GO;
}

/**
 * demo_mpi_text() - MPI's text of error @rc on one line (MPICH's error
 * stack spans several) into @text (MPI_MAX_ERROR_STRING bytes); "MPI error
 * code N" where MPI cannot say.  Returns @text.
 */
static inline char *demo_mpi_text(int rc, char *text)
{
    int len = 0;
    if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS)
        snprintf(text, MPI_MAX_ERROR_STRING, "MPI error code %d", rc);
    for (len = 0; text[len] != '\0'; len++)
        text[len] = text[len] == '\n' ? ' ' : text[len];
    return text;
}

/**
 * demo_mpi_check() - a demo's own MPI call (outside the headers) returned
 * @rc: on a failure, report it as the headers do and end the job (the
 * other ranks would wait for this one forever; MPI_COMM_WORLD, or a
 * communicator that returns errors, hands the error back to this rank
 * alone).
 * @prog: the demo's name.
 * @comm: the communicator of the call (names this rank).
 * @rc:   the call's return code (MPI_SUCCESS: nothing happens).
 * @call: the call ("MPI_Gather").
 * @what: what it was doing ("gathering the threads' times").
 * The message, "<prog>: rank R: CALL failed WHAT (MPI's error text);
 * aborting the job ...", goes through tilehybrid_mpi_abort(): a quarter of
 * a second for the launcher to forward it, then MPI_Abort(MPI_COMM_WORLD,
 * 3).  Returns only if @rc is MPI_SUCCESS (or MPI_Abort returns).
 */
static inline void demo_mpi_check(const char *prog, MPI_Comm comm, int rc, const char *call,
                                  const char *what)
{
    char err[MPI_MAX_ERROR_STRING], msg[480];
    int rank = -1;
    if (rc == MPI_SUCCESS)
        return;
    (void)demo_mpi_text(rc, err);
    if (comm == MPI_COMM_NULL || MPI_Comm_rank(comm, &rank) != MPI_SUCCESS)
        (void)MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    snprintf(msg, sizeof msg, "%s: rank %d: %s failed %s (%.160s)", prog, rank, call, what,
             err);
    tilehybrid_mpi_abort(msg, NULL, NULL, 3);
}

/**
 * demo_msg() - an option reader's failure: its message, the first one kept.
 * @err, @errlen: the message buffer; written only while it is empty.
 * @fmt, @arg: the message, a format with one %s (arg).
 * Return: 2 (bad arguments).
 */
static inline int demo_msg(char *err, size_t errlen, const char *fmt, const char *arg)
{
    if (err[0] == '\0')
        snprintf(err, errlen, fmt, arg);
    return 2;
}

/**
 * demo_pair() - read "A,B", two whole numbers in lo..hi, into *a and *b.
 * @v: the value; @lo, @hi: the range of each.
 * Return: 0, 1 (no comma), or 2 (a number out of range or not whole).
 */
static inline int demo_pair(const char *v, int64_t lo, int64_t hi, int64_t *a, int64_t *b)
{
    char buf[64], *comma;
    snprintf(buf, sizeof buf, "%s", v);
    comma = strchr(buf, ',');
    if (comma == NULL)
        return 1;
    *comma = '\0';
    return tilehybrid_parse_i64(buf, lo, hi, a) != TILEHYBRID_OK ||
           tilehybrid_parse_i64(comma + 1, lo, hi, b) != TILEHYBRID_OK ? 2 : 0;
}

/**
 * demo_real_error() - the message for real number option @a whose value
 * @v the shared parser (tilehybrid_parse_double()) refused with @code: the
 * parser's reason (a literal beyond a double's range is not rounded to 0
 * or infinity; not a plain decimal number), then what is expected.
 * @what: the values allowed, in words ("a number in (0, 2)").
 * @err, @len: receives the message.
 * Return: 2 (bad arguments).
 */
static inline int demo_real_error(const char *a, const char *v, int code, const char *what,
                                  char *err, size_t len)
{
    if (code == TILEHYBRID_ERR_RANGE)
        snprintf(err, len, "%s '%s': its magnitude is beyond what a double holds (about "
                 "4.9e-324 to 1.8e308; it is not rounded to 0 or infinity); expected %s", a, v,
                 what);
    else
        snprintf(err, len, "%s '%s': %s; expected %s", a, v, tilehybrid_strerror(code), what);
    return 2;
}

#ifdef TILEHYBRID_TILING_H
/* The options seidel and sw share: --verify, --json, --model and
 * --threads. */

/**
 * demo_options_vj() - read argv by tools/options.h's opt_parse() with the
 * flags --verify and --json.
 * @argc, @argv: the command line.
 * @valued, @nvalued: the options with a value, each read by @read.
 * @verify, @json: set to 1 by --verify, --json.
 * @read, @ctx: the reader of an option with its value, and its context.
 * @err, @errlen: the message when 2 is returned.
 * Return: 0 read; 1 --help; 2 bad arguments.
 */
static inline int demo_options_vj(int argc, char **argv, const char *const *valued, int nvalued,
                                  int *verify, int *json, opt_read_fn read, void *ctx,
                                  char *err, size_t errlen)
{
    opt_flag flags[2];
    opt_spec spec;
    flags[0].name = "--verify";
    flags[0].set = verify;
    flags[1].name = "--json";
    flags[1].set = json;
    spec.valued = valued;
    spec.nvalued = nvalued;
    spec.flags = flags;
    spec.nflags = 2;
    spec.read = read;
    return opt_parse(&spec, argc, argv, ctx, err, errlen);
}

/**
 * demo_model_threads() - read --model mpi|fine|funneled|multiple or
 * --threads 1..1024.
 * @name, @v: the option and its value.
 * @model, @threads: where they go (a TILE_MODEL_*, a thread count).
 * @err, @errlen: the message when 2 is returned (a message already there
 *        is kept).
 * Return: 0 read; 2 a bad value; -1 @name is neither option.
 */
static inline int demo_model_threads(const char *name, const char *v, int *model, int *threads,
                                     char *err, size_t errlen)
{
    int64_t x;
    int m;
    if (strcmp(name, "--threads") == 0) {
        if (tilehybrid_parse_i64(v, 1, 1024, &x) == TILEHYBRID_OK) {
            *threads = (int)x;
            return 0;
        }
        return demo_msg(err, errlen, "--threads '%s': expected a whole number in 1..1024", v);
    }
    if (strcmp(name, "--model") != 0)
        return -1;
    for (m = TILE_MODEL_MPI; m <= TILE_MODEL_MULTIPLE; m++)
        if (strcmp(v, tile_model_name(m)) == 0) {
            *model = m;
            return 0;
        }
    return demo_msg(err, errlen, "--model '%s': expected mpi, fine, funneled or multiple", v);
}

/**
 * demo_check_threads() - more than one thread needs a threaded model.
 * @model, @threads: as read.
 * @err, @errlen: the message when 2 is returned (a message already there
 *        is kept).
 * Return: 0 or 2.
 */
static inline int demo_check_threads(int model, int threads, char *err, size_t errlen)
{
    if (model != TILE_MODEL_MPI || threads == 1)
        return 0;
    return demo_msg(err, errlen, "%s", "--threads > 1 needs --model fine, funneled or multiple");
}
#endif

/**
 * demo_nomem() - say on stderr what could not be allocated, and its size:
 * "<prog>: rank R: out of memory allocating <what>: N x S bytes = B bytes".
 * @prog: the demo's name.
 * @rank: the rank that failed (< 0: not shown).
 * @what: what was being allocated ("the forward sweep's input array").
 * @n, @size: @n elements of @size bytes.
 */
static inline void demo_nomem(const char *prog, int rank, const char *what, int64_t n,
                              int64_t size)
{
    char r[32] = "";
    int64_t bytes = 0;
    if (rank >= 0)
        snprintf(r, sizeof r, "rank %d: ", rank);
    if (tilehybrid_mul_ok(n, size, &bytes))
        fprintf(stderr, "%s: %sout of memory allocating %s: %lld x %lld bytes = %lld bytes\n",
                prog, r, what, (long long)n, (long long)size, (long long)bytes);
    else
        fprintf(stderr, "%s: %sout of memory allocating %s: %lld x %lld bytes (more than 2^63)\n",
                prog, r, what, (long long)n, (long long)size);
}

/* The machine's memory in bytes, or 0 when unknown. */
static inline int64_t demo_memory(void)
{
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE)
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    int64_t bytes;
    if (pages > 0 && size > 0 && tilehybrid_mul_ok(pages, size, &bytes))
        return bytes;
#endif
    return 0;
}

/**
 * demo_node_ranks() - how many ranks of MPI_COMM_WORLD share this node's
 * memory: MPI_Comm_split_type(MPI_COMM_TYPE_SHARED), as tiling.h counts
 * them for its default memory limit.  Collective: every rank calls it,
 * whatever its own arguments.  A call that fails on this rank ends the job
 * (tilehybrid_mpi_failed(): the others would wait for it forever).
 * @prog: the demo's name, for that message.
 * Return: the ranks on this node (>= 1).
 */
static inline int demo_node_ranks(const char *prog)
{
    MPI_Comm node = MPI_COMM_NULL;
    const char *call = "MPI_Comm_split_type";
    int n = 1, rc = MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL,
                                        &node);
    if (rc == MPI_SUCCESS && (rc = MPI_Comm_size(node, &n)) != MPI_SUCCESS)
        call = "MPI_Comm_size";
    if (rc == MPI_SUCCESS && (rc = MPI_Comm_free(&node)) != MPI_SUCCESS)
        call = "MPI_Comm_free";
    if (rc != MPI_SUCCESS)
        tilehybrid_mpi_failed(MPI_COMM_WORLD, rc, call, DEMO_AGREE_FAILED, "in %s, counting the "
                              "ranks on this node (its memory limit)", prog);
    return n > 1 ? n : 1;
}

/**
 * struct demo_limit - the most bytes one rank may hold (demo_mem_limit()).
 * @bytes: the limit; 0: unknown (nothing is refused).
 * @why:   where it comes from, for a message: "TILEHYBRID_MEM_LIMIT",
 *         "half the physical memory: TILEHYBRID_MEM_LIMIT" or "half the
 *         physical memory, shared by the 2 ranks on this node:
 *         TILEHYBRID_MEM_LIMIT".
 */
typedef struct demo_limit {
    int64_t bytes;
    char why[96];
} demo_limit;

/**
 * demo_mem_limit() - one rank's memory limit, by tiling.h's rule for a
 * plan's default (cfg.mem_limit 0): TILEHYBRID_MEM_LIMIT (bytes per rank)
 * if set, else half the physical memory divided by the ranks on this node.
 * @node_ranks: the ranks on this node (demo_node_ranks()).
 * @lim:        receives the limit.
 * @err, @len:  the message when 2 is returned (TILEHYBRID_MEM_LIMIT is not
 *              a whole number of bytes >= 1: tiling.h's words).
 * Return: 0, or 2 with the message.
 */
static inline int demo_mem_limit(int node_ranks, demo_limit *lim, char *err, size_t len)
{
    const char *env = getenv("TILEHYBRID_MEM_LIMIT");
    int rc;
    lim->bytes = 0;
    lim->why[0] = '\0';
    if (env != NULL) {
        rc = tilehybrid_parse_i64(env, 1, INT64_MAX, &lim->bytes);
        if (rc == TILEHYBRID_ERR_RANGE && env[0] != '-' && env[0] != '0')
            return snprintf(err, len, "TILEHYBRID_MEM_LIMIT = '%.40s': out of range (1 to %lld "
                            "bytes)", env, (long long)INT64_MAX), 2;
        if (rc != TILEHYBRID_OK)
            return snprintf(err, len, "TILEHYBRID_MEM_LIMIT = '%.40s': not a whole number of "
                            "bytes >= 1", env), 2;
        snprintf(lim->why, sizeof lim->why, "TILEHYBRID_MEM_LIMIT");
        return 0;
    }
    lim->bytes = demo_memory() / 2 / (node_ranks > 1 ? node_ranks : 1);
    if (node_ranks > 1)
        snprintf(lim->why, sizeof lim->why, "half the physical memory, shared by the %d ranks "
                 "on this node: TILEHYBRID_MEM_LIMIT", node_ranks);
    else
        snprintf(lim->why, sizeof lim->why, "half the physical memory: TILEHYBRID_MEM_LIMIT");
    return 0;
}

/**
 * demo_check_memory() - refuse, before anything is allocated, what one
 * process must hold in full (the plain loop of --verify, --sequential)
 * when it passes that rank's memory limit (demo_mem_limit(): the node's
 * memory is shared by its ranks).
 * @opt:    the option that needs it ("--verify").
 * @what:   what it keeps ("the plain loop's 2-D array").
 * @points: how many points (>= 0).
 * @bytes:  bytes per point (>= 1).
 * @lower:  the option to lower ("--n").
 * @node_ranks: the ranks on this node (demo_node_ranks()).
 * @err:    receives the message (@len bytes).
 * Return: 0 (it fits, or the memory is unknown), or 2 with the message.
 */
static inline int demo_check_memory(const char *opt, const char *what, int64_t points,
                                    int64_t bytes, const char *lower, int node_ranks, char *err,
                                    size_t len)
{
    demo_limit lim;
    int64_t total = 0;
    if (demo_mem_limit(node_ranks, &lim, err, len) != 0)
        return 2;
    if (!tilehybrid_mul_ok(points, bytes, &total))
        return snprintf(err, len, "%s: %s (on rank 0): %lld points of %lld bytes, more than "
                        "2^63 bytes; lower %s", opt, what, (long long)points, (long long)bytes,
                        lower), 2;
    if (lim.bytes > 0 && total > lim.bytes)
        return snprintf(err, len, "%s: %s (on rank 0): %lld points of %lld bytes = %lld bytes, "
                        "more than its memory limit of %lld bytes (%s); lower %s", opt, what,
                        (long long)points, (long long)bytes, (long long)total,
                        (long long)lim.bytes, lim.why, lower), 2;
    return 0;
}

/**
 * demo_agree_help() - demo_agree(), and on rank 0 the help when every rank
 * asked for it.
 * @prog, @code, @msg, @v, @n: as for demo_agree().
 * @help: writes the demo's help on stdout.
 * Return: DEMO_AGREE_GO (run), or the demo's exit status, the same on every
 * rank but rank 0's after the help: 0 (the help, written), 1 (the help not
 * written, or the agreement failed), 2 (bad or differing arguments).
 */
static inline int demo_agree_help(const char *prog, int code, char *msg, const demo_arg *v, int n,
                                  void (*help)(void))
{
    int verdict = demo_agree(prog, code, msg, v, n), rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (verdict == DEMO_AGREE_HELP && rank == 0) {
        help();
        verdict = demo_help_written(prog);
    }
    return verdict;
}

/**
 * demo_agree_end() - the end of a demo's start after demo_agree_help():
 * unless @verdict is DEMO_AGREE_GO, flush stdout and finalize MPI.
 * @verdict: demo_agree_help()'s.
 * Return: @verdict: DEMO_AGREE_GO (-1, run) or the exit status.
 */
static inline int demo_agree_end(int verdict)
{
    if (verdict != DEMO_AGREE_GO) {
        fflush(stdout);
        MPI_Finalize();
    }
    return verdict;
}

#ifdef TILEHYBRID_TILING_H
/* (for the demos that include tiling.h before this header) */

/**
 * demo_reduction_start() - before a timed run: tile_reduction_init() of
 * @r on every rank (a rank out of memory says so on stderr), agree that
 * every rank has its slots (every rank runs the plan, or none), then line
 * the ranks up for the timing.  Collective over MPI_COMM_WORLD.
 * @prog:          the demo's name.
 * @plan, @r, @op: as for tile_reduction_init().
 * @what:          the slots' name in the message ("the checksum's
 *                 per-thread slots").
 * @threads:       the plan's threads (the message's count of slots).
 * @t0:            out: MPI_Wtime() after the barrier.
 * Return: 0 (run), or 1 on every rank when a rank is out of memory.
 */
static inline int demo_reduction_start(const char *prog, tile_plan *plan, tile_reduction *r,
                                       int op, const char *what, int threads, double *t0)
{
    int rank = 0, nomem = tile_reduction_init(plan, r, op, NULL) != TILE_OK;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (nomem)   /* (its only failure here: the plan was created) */
        demo_nomem(prog, rank, what, threads, (int64_t)sizeof(tile_reduction));
    MPI_Allreduce(MPI_IN_PLACE, &nomem, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    *t0 = MPI_Wtime();
    return nomem;
}
#endif

/* The seconds since @t0 (MPI_Wtime()) on the slowest rank (collective over
 * MPI_COMM_WORLD). */
static inline double demo_slowest(double t0)
{
    double secs = MPI_Wtime() - t0;
    MPI_Allreduce(MPI_IN_PLACE, &secs, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return secs;
}

#endif
