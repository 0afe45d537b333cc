/* tests/fuzz/fuzz_cli.c -- a fuzz target for the command lines and the pure
 * functions behind them (issue 14): the number parsers of tilehybrid.h, the
 * demos' parser (demos/demo.h), and tilectl topo, balance, scatter and plan,
 * which drive topology.h, balance.h, scatterlb.h and tiling.h's tile-height
 * model.
 *
 *   make fuzz                  libFuzzer (clang) for a minute, seeds in
 *                              tests/fuzz/corpus/, new inputs in build/fuzz/
 *   build/fuzz/replay FILE...  each input once (make check: the corpus)
 *
 * An input is a target byte ('0' + target, or any byte modulo TARGETS) and
 * then the arguments, one a line.  Target CSV takes the rest as the
 * contents of the --costs file of `tilectl scatter --items N --json`, with N
 * on the first line.  Besides what the sanitizers see, every input checks:
 *   - a command that fails writes nothing to stdout (issue 14 item 5: no
 *     half JSON), and one that succeeds with --json writes one line "{...}"
 *     of UTF-8 text (a CSV name that is not UTF-8 is refused);
 *   - a number the parsers accept is in range and reads back the same.
 * A broken check calls abort(): libFuzzer keeps the input as a crash.
 * Built without libFuzzer, -DFUZZ_REPLAY adds a main() that runs the files
 * named on the command line.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L   /* dup, fileno, mkstemp */
#endif
#include "../../tools/tilectl/cli.h"
#include "../../demos/demo.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { T_TOPO, T_BALANCE, T_SCATTER, T_CSV, T_NUMBER, T_DEMO, T_PLAN, TARGETS };
enum { MAXARGS = 40, MAXBYTES = 1 << 16 };

static char fz_out[64] = "", fz_costs[64] = "";
static int fz_null = -1, fz_outfd = -1;

static void fz_cleanup(void)
{
    unlink(fz_costs);
}

/* Once: a scratch file for stdout, one for the CSV, /dev/null for stderr. */
static void fz_setup(void)
{
    const char *dir = getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp";
    int fd;
    if (fz_outfd >= 0)
        return;
    snprintf(fz_out, sizeof fz_out, "%.40s/fuzzcli.XXXXXX", dir);
    snprintf(fz_costs, sizeof fz_costs, "%.40s/fuzzcsv.XXXXXX", dir);
    fz_outfd = mkstemp(fz_out);
    fd = mkstemp(fz_costs);
    fz_null = open("/dev/null", O_WRONLY);
    if (fz_outfd < 0 || fd < 0 || fz_null < 0) {
        perror("fuzz_cli: scratch files");
        abort();
    }
    close(fd);
    unlink(fz_out);              /* the descriptor stays valid */
    atexit(fz_cleanup);
}

/* The command's output (fz_outfd, size bytes) is UTF-8 with no NUL byte. */
static int fz_utf8_output(size_t size)
{
    char *b = (char *)malloc(size + 1);
    int ok;
    if (b == NULL)
        return 1;               /* (nothing to say about it) */
    ok = pread(fz_outfd, b, size, 0) == (ssize_t)size && memchr(b, '\0', size) == NULL;
    b[size] = '\0';
    ok = ok && cli_utf8_check(b) < 0;
    free(b);
    return ok;
}
/* Run a tilectl subcommand with stdout in the scratch file and stderr in
 * /dev/null; check what it wrote against its exit status. */
static void fz_tilectl(int (*cmd)(int, char **), int argc, char **argv)
{
    int save_out, save_err, rc, json = 0, i;
    struct stat st;
    char head = 0, tail[2] = { 0, 0 };
    for (i = 1; i < argc; i++) {
        json |= strcmp(argv[i], "--json") == 0;
        if (strcmp(argv[i], "--all") == 0)
            return;              /* lists every process: unbounded by design */
    }
    fflush(stdout);
    fflush(stderr);
    save_out = dup(1);
    save_err = dup(2);
    if (ftruncate(fz_outfd, 0) != 0 || lseek(fz_outfd, 0, SEEK_SET) != 0)
        abort();
    dup2(fz_outfd, 1);
    dup2(fz_null, 2);
    rc = cmd(argc, argv);
    fflush(stdout);
    fflush(stderr);
    dup2(save_out, 1);
    dup2(save_err, 2);
    close(save_out);
    close(save_err);
    clearerr(stdout);
    if (fstat(fz_outfd, &st) != 0)
        abort();
    if (rc != 0 && st.st_size > 0) {
        fprintf(stderr, "fuzz_cli: %s exited %d after writing %lld bytes to stdout\n", argv[0],
                rc, (long long)st.st_size);
        abort();
    }
    if (rc == 0 && json && (pread(fz_outfd, &head, 1, 0) != 1 ||
                            pread(fz_outfd, tail, 2, st.st_size - 2) != 2 || head != '{' ||
                            tail[0] != '}' || tail[1] != '\n')) {
        fprintf(stderr, "fuzz_cli: %s --json: not one line {...}\n", argv[0]);
        abort();
    }
    if (rc == 0 && json && !fz_utf8_output((size_t)st.st_size)) {
        fprintf(stderr, "fuzz_cli: %s --json: not UTF-8 (JSON text must be)\n", argv[0]);
        abort();
    }
}

/* The number parsers: an accepted number is in range and reads back. */
static void fz_number(const char *s)
{
    int64_t i = 0, j = 0;
    double d = 0, e = 0;
    char buf[64];
    if (tilehybrid_parse_i64(s, -1000, 1000000, &i) == TILEHYBRID_OK) {
        snprintf(buf, sizeof buf, "%lld", (long long)i);
        if (i < -1000 || i > 1000000 || tilehybrid_parse_i64(buf, INT64_MIN, INT64_MAX, &j) ||
            i != j)
            abort();
    }
    if (tilehybrid_parse_double(s, -1e300, 1e300, &d) == TILEHYBRID_OK) {
        snprintf(buf, sizeof buf, "%.17g", d);
        if (!(d >= -1e300 && d <= 1e300) ||
            tilehybrid_parse_double(buf, -HUGE_VAL, HUGE_VAL, &e) != TILEHYBRID_OK ||
            memcmp(&d, &e, sizeof d) != 0)
            abort();
        if (strchr(s, ' ') || strchr(s, '+') == s || strchr(s, 'x') || strchr(s, 'X'))
            abort();             /* the one rule: no spaces, leading '+' or hex */
    }
}

/* The demos' parser and its checks (no MPI: demo_parse is pure). */
static void fz_demo(int argc, char **argv)
{
    static const demo_kernel k = { "fuzz", { 16, 16, 16 }, { 1, 1 }, 1, NULL };
    demo_opts o;
    int rc;
    demo_errmsg[0] = '\0';
    rc = demo_parse(argc, argv, &k, &o);
    if (rc != 0 && (rc != 2 || demo_errmsg[0] == '\0'))
        abort();                 /* every refusal says why */
    if (rc == 0 && !o.help && (o.space[0] < 1 || o.space[1] < 1 || o.space[2] < 1 ||
                               o.tile_height < 0 || o.threads < 1 || o.threads > 1024 ||
                               !(o.bal >= 0 && o.bal <= 1) ||
                               (o.model == TILE_MODEL_MPI && o.threads != 1)))
        abort();
    if (rc == 0 && !o.help)
        (void)demo_check_verify(&o, 1 + (int)(o.space[0] % 64), 1 + (int)(o.space[1] % 4));
}

/* Split data (after the target byte) into argv[1..] at newlines. */
static int fz_split(char *text, char **argv, const char *name)
{
    int argc = 1;
    char *p = text;
    argv[0] = (char *)name;
    while (*p != '\0' && argc < MAXARGS - 1) {
        char *nl = strchr(p, '\n');
        argv[argc++] = p;
        if (nl == NULL)
            break;
        *nl = '\0';
        p = nl + 1;
    }
    argv[argc] = NULL;
    return argc;
}

/* CSV: line 1 is --items, the rest the costs file. */
static void fz_csv(const char *text)
{
    char items[32], *argv[8];
    size_t l = strcspn(text, "\n");
    FILE *f = fopen(fz_costs, "w");
    if (f == NULL)
        abort();
    snprintf(items, sizeof items, "%.*s", (int)(l < 31 ? l : 31), text);
    fputs(text + l + (text[l] != '\0'), f);
    fclose(f);
    argv[0] = (char *)"scatter";
    argv[1] = (char *)"--costs";
    argv[2] = fz_costs;
    argv[3] = (char *)"--items";
    argv[4] = items;
    argv[5] = (char *)"--json";
    argv[6] = NULL;
    fz_tilectl(tilectl_scatter, 6, argv);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text, *argv[MAXARGS];
    int target, argc;
    if (size < 1 || size > MAXBYTES)
        return 0;
    fz_setup();
    target = (data[0] >= '0' ? data[0] - '0' : data[0]) % TARGETS;
    text = (char *)malloc(size);
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';       /* the arguments end at the first NUL */
    switch (target) {
    case T_TOPO:
        argc = fz_split(text, argv, "topo");
        fz_tilectl(tilectl_topo, argc, argv);
        break;
    case T_BALANCE:
        argc = fz_split(text, argv, "balance");
        fz_tilectl(tilectl_balance, argc, argv);
        break;
    case T_SCATTER:
        argc = fz_split(text, argv, "scatter");
        fz_tilectl(tilectl_scatter, argc, argv);
        break;
    case T_CSV:
        fz_csv(text);
        break;
    case T_NUMBER:
        fz_number(text);
        break;
    case T_PLAN:
        argc = fz_split(text, argv, "plan");
        fz_tilectl(tilectl_plan, argc, argv);
        break;
    default:
        argc = fz_split(text, argv, "fuzz");
        fz_demo(argc, argv);
    }
    free(text);
    return 0;
}

#ifdef FUZZ_REPLAY
/* Each file named once; prints "N inputs"; exit 0 (a failed check aborts). */
int main(int argc, char **argv)
{
    int i, n = 0;
    for (i = 1; i < argc; i++) {
        static uint8_t buf[MAXBYTES + 1];
        FILE *f = fopen(argv[i], "rb");
        size_t len;
        if (f == NULL) {
            fprintf(stderr, "replay: cannot read %s\n", argv[i]);
            return 2;
        }
        len = fread(buf, 1, sizeof buf, f);
        fclose(f);
        LLVMFuzzerTestOneInput(buf, len);
        n++;
    }
    printf("%d inputs replayed\n", n);
    return 0;
}
#endif
