/* tools/options.h -- the one option loop of tilehybrid's programs: the
 * tilectl subcommands (tools/tilectl/cli.c) and the demos (demos/agree.h).
 * Not part of the installed API; header-only C99, no MPI.
 *
 *   static const char *const valued[] = { "--n", "--steps" };
 *   const opt_flag flags[] = { { "--verify", &o.verify }, { "--json", &o.json } };
 *   const opt_spec spec = { valued, 2, flags, 2, my_read };
 *   char err[256];
 *   int rc = opt_parse(&spec, argc, argv, &o, err, sizeof err);
 *   // 0: read; 1: -h or --help; else the exit status, the message in err
 *
 * The rules, the same for every program: "--name value" and "--name=value"
 * for an option that takes a value, "--name" alone for a flag; the message
 * names the argument for an argument that is not an option ("unexpected
 * argument"), an unknown option, a flag given a value ("takes no value"),
 * and an option without its value, the last word ("needs a value").  A
 * repeated option takes its last value (as most Unix tools). */
#ifndef TILEHYBRID_TOOLS_OPTIONS_H
#define TILEHYBRID_TOOLS_OPTIONS_H

#include <stdio.h>
#include <string.h>

/* A flag (an option without a value): its name and the int it sets to 1. */
typedef struct opt_flag {
    const char *name;
    int *set;
} opt_flag;

/* Reads option name (one of the spec's valued names) with its value into
 * ctx: 0, or the exit status (2) with the message in err (err left empty
 * when the reader printed its own). */
typedef int (*opt_read_fn)(void *ctx, const char *name, const char *value, char *err,
                           size_t errlen);

/* A program's options: the names that take a value, the flags, the reader. */
typedef struct opt_spec {
    const char *const *valued;
    int nvalued;
    const opt_flag *flags;
    int nflags;
    opt_read_fn read;
} opt_spec;

/* Is arg[0 .. len-1] exactly name? */
static inline int opt__is(const char *arg, size_t len, const char *name)
{
    return strlen(name) == len && strncmp(arg, name, len) == 0;
}

/* The index of the valued name arg[0 .. len-1], or -1. */
static inline int opt__valued(const opt_spec *s, const char *arg, size_t len)
{
    int k;
    for (k = 0; k < s->nvalued; k++)
        if (opt__is(arg, len, s->valued[k]))
            return k;
    return -1;
}

/* The index of the flag arg[0 .. len-1], or -1. */
static inline int opt__flag(const opt_spec *s, const char *arg, size_t len)
{
    int k;
    for (k = 0; k < s->nflags; k++)
        if (opt__is(arg, len, s->flags[k].name))
            return k;
    return -1;
}

/**
 * opt_parse() - read argv[1 .. argc-1] by the spec.
 * @s:    the options (valued names, flags, the reader).
 * @argc, @argv: the command line.
 * @ctx:  passed to the reader.
 * @err, @errlen: the message when the exit status is returned.
 * Return: 0 read; 1 -h or --help (at once); else the exit status: the
 * reader's, or 2 with a message naming the argument.
 */
static inline int opt_parse(const opt_spec *s, int argc, char **argv, void *ctx, char *err,
                            size_t errlen)
{
    int i, k;
    if (errlen > 0)
        err[0] = '\0';
    for (i = 1; i < argc; i++) {
        const char *arg = argv[i], *eq = strchr(arg, '='), *val;
        size_t len = eq != NULL ? (size_t)(eq - arg) : strlen(arg);
        int shown = len > 60 ? 60 : (int)len;
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0)
            return 1;
        if (arg[0] != '-')
            return snprintf(err, errlen, "unexpected argument '%s' (see --help)", arg), 2;
        if ((k = opt__flag(s, arg, len)) >= 0) {
            if (eq != NULL)
                return snprintf(err, errlen, "%s takes no value (see --help)",
                                s->flags[k].name), 2;
            *s->flags[k].set = 1;
            continue;
        }
        if ((k = opt__valued(s, arg, len)) < 0)
            return snprintf(err, errlen, "unknown option '%.*s%s' (see --help)", shown, arg,
                            shown < (int)len ? "..." : ""), 2;
        if (eq != NULL)
            val = eq + 1;
        else if (i + 1 < argc)
            val = argv[++i];
        else
            return snprintf(err, errlen, "%s needs a value (see --help)", s->valued[k]), 2;
        if ((k = s->read(ctx, s->valued[k], val, err, errlen)) != 0)
            return k;
    }
    return 0;
}

/* The words name(lo) .. name(hi) as a message lists them, "a, b or c", in
 * buf (cut at size bytes, which must be >= 1); returns buf.  For the words
 * a library names (tiling.h's tile_order_name), so that a message lists
 * every word the parser takes. */
static inline const char *opt_words(char *buf, size_t size, const char *(*name)(int), int lo,
                                    int hi)
{
    size_t k = 0;
    int m;
    buf[0] = '\0';
    for (m = lo; m <= hi && k < size; m++)
        k += (size_t)snprintf(buf + k, size - k, "%s%s",
                              m == lo ? "" : m == hi ? " or " : ", ", name(m));
    return buf;
}

#endif
