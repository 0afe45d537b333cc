/* tilectl/cli.c -- the helpers of every tilectl subcommand (cli.h): the
 * error line, the one number rule, lists, JSON strings.  Kept apart from
 * main() so that the subcommands link without it (tests/fuzz/). */
#include "cli.h"

#include <float.h>
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

int cli_finish_output(const char *cmd)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        cli_error(cmd, "writing the output: %s", strerror(errno));
        return 1;
    }
    return 0;
}

void cli_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
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
    int prec;
    for (prec = 15; prec < 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    snprintf(buf, sizeof buf, "%.*g", prec, v);
    fputs(buf, f);
}
