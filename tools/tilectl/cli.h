/* tilectl/cli.h -- small helpers shared by the tilectl subcommands.
 * Not part of the installed API.  Each subcommand lives in its own file
 * (tools/tilectl/topo.c, balance.c, scatter.c) and is dispatched by main.c. */
#ifndef TILEHYBRID_TILECTL_CLI_H
#define TILEHYBRID_TILECTL_CLI_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Subcommands: argc/argv start at the subcommand name.  Return the exit
 * status: 0 on success, 2 for bad arguments (after printing a message to
 * stderr that names the argument), 1 for other failures. */
int tilectl_topo(int argc, char **argv);
int tilectl_balance(int argc, char **argv);
int tilectl_scatter(int argc, char **argv);

/* Print "tilectl <cmd>: <message>" to stderr; returns 2 (usage error). */
int cli_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Parse a list of integers separated by any character of seps ("x" or ","),
 * e.g. "16x256x16384".  Every entry must be a whole decimal number in
 * [lo, hi].  Returns the number of entries (at most max), or -1 on a syntax
 * error, an out-of-range entry or too many entries. */
int cli_parse_i64_list(const char *s, const char *seps, int64_t lo, int64_t hi,
                       int64_t *out, int max);

/* Parse a whole decimal integer in [lo, hi]; 0 on success, -1 otherwise. */
int cli_parse_i64(const char *s, int64_t lo, int64_t hi, int64_t *out);

/* Parse a finite floating-point number (strtod syntax, e.g. 288e-9);
 * 0 on success, -1 otherwise. */
int cli_parse_double(const char *s, double *out);

/* Print a JSON string (with quotes and escapes) to f. */
void cli_json_string(FILE *f, const char *s);

/* Print an int64 array as "1x16" (sep "x") or as a JSON array (sep NULL). */
void cli_print_i64s(FILE *f, const int64_t *v, int n, const char *sep);

#endif
