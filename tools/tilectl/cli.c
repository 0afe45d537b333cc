/* tilectl/cli.c -- the helpers of every tilectl subcommand (cli.h): the
 * error line, the one number rule, lists, JSON strings.  Kept apart from
 * main() so that the subcommands link without it (tests/fuzz/). */
#include "cli.h"

#include <float.h>
#include <stddef.h>
#include <stdarg.h>

int cli_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "tilectl %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return 2;
}

/* opt_parse()'s reader for cli_parse_options(): the option by its index
 * in o->names (opt_parse passes the table's own pointer); set prints its
 * own message. */
struct cli_reader {
    const cli_options *o;
    void *args;
};

static int cli_read(void *ctx, const char *name, const char *value, char *err, size_t errlen)
{
    const struct cli_reader *r = (const struct cli_reader *)ctx;
    int k = 0;
    (void)err;
    (void)errlen;
    while (k < r->o->nvalue - 1 && r->o->names[k] != name)
        k++;
    return r->o->set(r->args, k, value);
}

int cli_parse_options(const cli_options *o, int argc, char **argv, void *args, int *json)
{
    opt_flag flags[CLI_MAX_FLAGS + 1];
    int on[CLI_MAX_FLAGS] = {0}, nf = o->n - o->nvalue, k, rc;
    struct cli_reader r;
    opt_spec spec;
    char err[256];
    if (nf > CLI_MAX_FLAGS)
        return cli_error(o->cmd, "internal: more than %d flags", CLI_MAX_FLAGS);
    for (k = 0; k < nf; k++) {
        flags[k].name = o->names[o->nvalue + k];
        flags[k].set = &on[k];
    }
    flags[nf].name = "--json";
    flags[nf].set = json;
    r.o = o;
    r.args = args;
    spec.valued = o->names;
    spec.nvalued = o->nvalue;
    spec.flags = flags;
    spec.nflags = nf + 1;
    spec.read = cli_read;
    rc = opt_parse(&spec, argc, argv, &r, err, sizeof err);
    if (rc == 1) {
        o->usage(stdout);
        return -1;
    }
    if (rc != 0)
        return err[0] != '\0' ? cli_error(o->cmd, "%s", err) : rc;
    for (k = 0; k < nf; k++)   /* the flags given, in the table's order */
        if (on[k] && (rc = o->set(args, o->nvalue + k, NULL)) != 0)
            return rc;
    return 0;
}

int cli_parse_i64(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
    return tilehybrid_parse_i64(s, lo, hi, out);
}

/* The cause of a list entry's error, for cli_list_error.why. */
static const char *list_why(int code, const char *entry)
{
    if (*entry == '\0')
        return "is empty";
    if (code == TILEHYBRID_ERR_RANGE)
        return "is out of range";
    return "is not a whole number (digits only: no spaces, '+', other bases or units)";
}

int cli_parse_i64_list(const char *s, const char *seps, int64_t lo, int64_t hi,
                       int64_t *out, int max, cli_list_error *err)
{
    char buf[128];
    int n = 0, code;
    const char *p = s;
    cli_list_error dummy;
    if (err == NULL)
        err = &dummy;
    err->entry = 0;
    err->why = "is empty";
    if (s == NULL || *s == '\0')
        return -1;
    for (;;) {
        size_t len = strcspn(p, seps);
        err->entry = n + 1;
        if (n >= max) {
            err->entry = 0;
            err->why = "has too many entries";
            return -1;
        }
        if (len >= sizeof buf) {
            err->why = "is too long (over 127 characters)";
            return -1;
        }
        memcpy(buf, p, len);
        buf[len] = '\0';
        code = cli_parse_i64(buf, lo, hi, &out[n]);
        if (code != TILEHYBRID_OK) {
            err->why = list_why(code, buf);
            return -1;
        }
        n++;
        if (p[len] == '\0')
            return n;
        p += len + 1;
    }
}

int cli_parse_double(const char *s, double *out)
{
    return tilehybrid_parse_double(s, -DBL_MAX, DBL_MAX, out);
}

const char *cli_double_why(int code)
{
    if (code == TILEHYBRID_ERR_RANGE)
        return "its magnitude is beyond what a double holds (about 4.9e-324 to 1.8e308; "
               "it is not rounded to 0 or infinity)";
    return tilehybrid_strerror(code);
}

int cli_whole_opt(const char *cmd, const char *name, const char *v, int64_t lo, int64_t hi,
                  int64_t *out)
{
    int code = cli_parse_i64(v, lo, hi, out);
    if (code != TILEHYBRID_OK)
        return cli_error(cmd, "%s: '%s' is not a whole number in %lld..%lld: %s", name, v,
                         (long long)lo, (long long)hi, tilehybrid_strerror(code));
    return 0;
}

int cli_list_opt(const char *cmd, const char *name, const char *v, const char *seps, int64_t lo,
                 int64_t hi, int max, int64_t *out, int *count, const char *form)
{
    cli_list_error e;
    const char *open = form ? " (" : "", *close = form ? ")" : "";
    *count = cli_parse_i64_list(v, seps, lo, hi, out, max, &e);
    if (*count >= 1)
        return 0;
    if (form == NULL)
        form = "";
    if (e.entry > 0)
        return cli_error(cmd, "%s: '%s': entry %d %s%s%s%s", name, v, e.entry, e.why, open, form,
                         close);
    return cli_error(cmd, "%s: '%s' %s%s%s%s", name, v, e.why, open, form, close);
}

int cli_real_opt(const char *cmd, const char *name, const char *v, double *out)
{
    int code = cli_parse_double(v, out);
    if (code != TILEHYBRID_OK)
        return cli_error(cmd, "%s: '%s' is not a number: %s", name, v, cli_double_why(code));
    return 0;
}

int cli_finish_output(const char *cmd)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        cli_error(cmd, "writing the output: %s", strerror(errno));
        return 1;
    }
    return 0;
}

int cli_utf8_len(const char *s)
{
    const unsigned char *u = (const unsigned char *)s;
    int n, i;
    unsigned long cp;
    if (u[0] < 0x80)
        return 1;
    if (u[0] >= 0xc2 && u[0] <= 0xdf) {
        n = 2;
        cp = u[0] & 0x1f;
    } else if (u[0] >= 0xe0 && u[0] <= 0xef) {
        n = 3;
        cp = u[0] & 0x0f;
    } else if (u[0] >= 0xf0 && u[0] <= 0xf4) {
        n = 4;
        cp = u[0] & 0x07;
    } else {
        return 0; /* a continuation byte, 0xc0/0xc1 (overlong) or 0xf5.. */
    }
    for (i = 1; i < n; i++) {
        if ((u[i] & 0xc0) != 0x80) /* also the terminating NUL: cut short */
            return 0;
        cp = (cp << 6) | (u[i] & 0x3f);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
        (cp >= 0xd800 && cp <= 0xdfff))
        return 0; /* overlong, beyond Unicode, or a surrogate */
    return n;
}

int cli_utf8_check(const char *s)
{
    int i = 0, n;
    while (s[i] != '\0') {
        n = cli_utf8_len(s + i);
        if (n == 0)
            return i;
        i += n;
    }
    return -1;
}

void cli_json_string(FILE *f, const char *s)
{
    int n;
    fputc('"', f);
    while (*s) {
        unsigned char c = (unsigned char)*s;
        n = cli_utf8_len(s);
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else if (n == 0)
            fputs("\\ufffd", f); /* not UTF-8: JSON text must be */
        else
            fwrite(s, 1, (size_t)n, f);
        s += n > 0 ? n : 1;
    }
    fputc('"', f);
}

void cli_print_i64s(FILE *f, const int64_t *v, int n, const char *sep)
{
    int i;
    if (sep == NULL)
        fputc('[', f);
    for (i = 0; i < n; i++) {
        if (i > 0)
            fputs(sep ? sep : ",", f);
        fprintf(f, "%lld", (long long)v[i]);
    }
    if (sep == NULL)
        fputc(']', f);
}

void cli_json_double(FILE *f, double v)
{
    char buf[40];
    if (!(v == v && v - v == 0.0)) {   /* inf, nan: JSON has no such number */
        fputs("null", f);
        return;
    }
    tilehybrid_double_text(v, buf, sizeof buf);
    fputs(buf, f);
}
