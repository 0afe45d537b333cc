/* tilectl/cli.h -- small helpers shared by the tilectl subcommands.
 * Not part of the installed API.  Each subcommand lives in its own file
 * (tools/tilectl/topo.c, balance.c, scatter.c, plan.c) and is dispatched by main.c. */
#ifndef TILEHYBRID_TILECTL_CLI_H
#define TILEHYBRID_TILECTL_CLI_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tilehybrid.h" /* the one number parser */
#include "../options.h" /* the one option loop */

struct topo_nest;   /* topology.h */

/* The most extents of a space (topology.h's TOPO_MAX_DIMS + 1, checked in
 * tools/tilectl/stencil.c). */
#define CLI_MAX_EXTENTS 17

/* Subcommands: argc/argv start at the subcommand name.  Return the exit
 * status: 0 on success, 2 for bad arguments (after printing a message to
 * stderr that names the argument), 1 for other failures. */
int tilectl_topo(int argc, char **argv);
int tilectl_balance(int argc, char **argv);
int tilectl_scatter(int argc, char **argv);
int tilectl_plan(int argc, char **argv);

/* Print "tilectl <cmd>: <message>" to stderr; returns 2 (usage error). */
int cli_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Why a list did not parse: the entry at fault (1-based; 0 = the list as a
 * whole) and the cause in words ("is not a whole number", ...). */
typedef struct cli_list_error {
    int entry;
    const char *why;
} cli_list_error;

/* The most flags a subcommand has besides --json. */
#define CLI_MAX_FLAGS 4

/* A subcommand's options: names[0 .. nvalue-1] take a value ("--name v" or
 * "--name=v"), names[nvalue .. n-1] (at most CLI_MAX_FLAGS) are flags
 * without one.  set(args, k,
 * val) takes option k with its value (NULL for a flag) and returns 0 or the
 * exit status after a message; usage prints the subcommand's help. */
typedef struct cli_options {
    const char *cmd;
    const char *const *names;
    int n, nvalue;
    void (*usage)(FILE *f);
    int (*set)(void *args, int k, const char *val);
} cli_options;

/* Read argv[1 .. argc-1] the way every program of the project does
 * (tools/options.h's opt_parse(), the demos' loop too): -h or --help
 * prints the usage to stdout and returns -1; --json sets *json; every
 * option of o with a value goes to o->set(args, ...) in the order given,
 * then each flag given (with a NULL value).  Returns 0, or
 * the exit status: set's, or 2 after a message that names the argument
 * (not an option, an unknown option, a value missing, a value given to a
 * flag). */
int cli_parse_options(const cli_options *o, int argc, char **argv, void *args, int *json);

/* Parse a list of integers separated by any character of seps ("x" or ","),
 * e.g. "16x256x16384".  Every entry must be a whole decimal number in
 * [lo, hi] by tilehybrid_parse_i64()'s rule (no spaces, '+' or other bases).
 * Returns the number of entries (at most max), or -1 on a syntax error, an
 * out-of-range entry or too many entries; then *err (may be NULL) says
 * which entry and why. */
int cli_parse_i64_list(const char *s, const char *seps, int64_t lo, int64_t hi,
                       int64_t *out, int max, cli_list_error *err);

/* Parse a whole decimal integer in [lo, hi] (tilehybrid_parse_i64()):
 * 0 on success, else a positive TILEHYBRID_ERR_* code for
 * tilehybrid_strerror(). */
int cli_parse_i64(const char *s, int64_t lo, int64_t hi, int64_t *out);

/* Parse a finite real number, e.g. 288e-9, by the one rule of every
 * program (tilehybrid_parse_double(): no spaces, '+', hex, inf or nan;
 * subnormals are numbers, 1e-400 and 1e999 out of range): 0 on success,
 * else a positive TILEHYBRID_ERR_* code for tilehybrid_strerror(). */
int cli_parse_double(const char *s, double *out);

/* Why cli_parse_double() failed, in words: a range error says that the
 * magnitude is beyond a double's (1e-400 is not rounded to 0). */
const char *cli_double_why(int code);

/* The value v of option name (e.g. "--threads") as a whole number in
 * [lo, hi]: 0, or the exit status 2 after "tilectl <cmd>: <name>: '<v>' is
 * not a whole number in lo..hi: <reason>". */
int cli_whole_opt(const char *cmd, const char *name, const char *v, int64_t lo, int64_t hi,
                  int64_t *out);

/* The value v of option name as a list (cli_parse_i64_list(): entries in
 * [lo, hi] separated by seps, at most max; *count gets their number): 0, or
 * the exit status 2 after a message naming the option, the value, the
 * entry at fault and why, then " (form)" when form is not NULL (the
 * expected form in words, e.g. "e.g. 4x4"). */
int cli_list_opt(const char *cmd, const char *name, const char *v, const char *seps, int64_t lo,
                 int64_t hi, int max, int64_t *out, int *count, const char *form);

/* The value v of option name as a real number (cli_parse_double(); the
 * caller checks its range): 0, or the exit status 2 after "tilectl <cmd>:
 * <name>: '<v>' is not a number: <reason>". */
int cli_real_opt(const char *cmd, const char *name, const char *v, double *out);

/* Flush stdout; on a write error print "tilectl <cmd>: writing the output:
 * <reason>" and return 1, else return 0. */
int cli_finish_output(const char *cmd);

/* The length (1 to 4) of the well-formed UTF-8 sequence at s, or 0 (an
 * invalid byte, an overlong form, a surrogate, beyond U+10FFFF, cut short). */
int cli_utf8_len(const char *s);

/* The offset of the first byte of s that is not well-formed UTF-8, or -1. */
int cli_utf8_check(const char *s);

/* Print a JSON string (with quotes and escapes) to f: control characters
 * as \u00XX, a byte that is not UTF-8 as \ufffd (the output stays valid
 * JSON whatever s holds). */
void cli_json_string(FILE *f, const char *s);

/* Print an int64 array as "1x16" (sep "x") or as a JSON array (sep NULL). */
void cli_print_i64s(FILE *f, const int64_t *v, int n, const char *sep);

/* Print a double as a JSON number in the fewest digits (15..17) that read
 * back as the same double: 2.88e-07 rather than 2.8799999999999998e-07,
 * and still lossless; null for an infinity or a NaN (JSON has neither). */
void cli_json_double(FILE *f, double v);

/* A stencil as given on the command line: n + 1 extents (Z last), nvec
 * vectors of n + 1 offsets (vector k at vec[k * stride]), --dir's ndir
 * entries (ndir < 0: all upward) and --loop-order's norder entries
 * (1-based dimensions, outermost first; norder < 0: Z, then X_1 ... X_N, a
 * plan's default). */
typedef struct cli_stencil {
    int n, nvec, stride;
    const int64_t *space;
    const int *vec;
    const int64_t *dir, *order;
    int ndir, norder;
} cli_stencil;

/* What the plan makes of it: whether it skews, the extents it tiles (Z
 * last) and d'_Z. */
typedef struct cli_skew {
    int skewed, dz;
    int64_t size[CLI_MAX_EXTENTS];
} cli_skew;

/* The nest a plan runs for stencil s (tools/tilectl/stencil.c: tiling.h's
 * tile_config_deps(), with its skew when a vector reads a later point along
 * some dimension): *nest over the extents the plan tiles, with the widths
 * d'_i and the extended faces (topology.h's costs at their defaults), *out
 * as above.  0, or the exit status 2 after a message (--loop-order,
 * --dir, or the plan's own). */
int cli_stencil_nest(const char *cmd, const cli_stencil *s, struct topo_nest *nest,
                     cli_skew *out);

#endif
