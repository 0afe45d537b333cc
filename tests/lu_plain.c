/* tests/lu_plain.c -- NPB LU, class S, W, A or B, run by the plain
 * sequential reference (tests/lu_plain.h): NPB's result block, then each
 * residual norm, error norm and the surface integral beside the class's
 * reference value (NPB 3.4) and the relative error (at most 1e-8 to pass).
 *
 *   build/tests/lu_plain S                   verified: exit 0
 *   build/tests/lu_plain A --iterations 5    5 steps: the norms, no reference
 *
 * The time is the steps' only, as NPB's (not the set-up, the first
 * residual, the norms of the end); Mop/s is NPB's operation count for LU
 * over that time.  The values print with 17 digits, so two runs (or this
 * and a tiled LU) compare bit for bit by their text.
 *
 * Exit status: 0 verified, or --iterations other than the class's (there
 * are no reference values to compare); 1 the verification failed or the
 * arrays did not fit in memory; 2 bad arguments.
 */
#define _POSIX_C_SOURCE 200112L
#include "lu_plain.h"

#include <stdio.h>
#include <time.h>

static double lu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void lu_usage(FILE *f, int full)
{
    fprintf(f, "usage: lu_plain S|W|A|B [--iterations K]%s\n", full ? "" : " (--help: more)");
    if (full)
        fprintf(f, "  NPB 3.4's LU: the class's grid, steps and time step, verified against its\n"
                   "  reference values; --iterations K: K steps instead (nothing verified)\n");
}

/* The command line: the class and the steps.  Return: 0, 1 (--help: done),
 * or 2 (a message printed). */
static int lu_args(int argc, char **argv, struct lu_class *c, int *iters)
{
    char *end;
    long k;
    if (argc == 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
        lu_usage(stdout, 1);
        return 1;
    }
    if (argc != 2 && argc != 4) {
        lu_usage(stderr, 0);
        return 2;
    }
    if (strlen(argv[1]) != 1 || lu_class_get(argv[1][0], c) != 0) {
        fprintf(stderr, "lu_plain: unknown class '%s': expected S, W, A or B\n", argv[1]);
        return 2;
    }
    *iters = c->itmax;
    if (argc == 2)
        return 0;
    if (strcmp(argv[2], "--iterations") != 0) {
        fprintf(stderr, "lu_plain: unknown option '%s': expected --iterations K\n", argv[2]);
        return 2;
    }
    k = strtol(argv[3], &end, 10);
    if (end == argv[3] || *end != '\0' || k < 1 || k > 1000000) {
        fprintf(stderr, "lu_plain: --iterations '%s': expected a whole number from 1 to 1000000\n",
                argv[3]);
        return 2;
    }
    *iters = (int)k;
    return 0;
}

static void lu_report(const struct lu *s, const struct lu_class *c, const struct lu_rel *rel,
                      int checked)
{
    int m;
    if (checked)
        printf("\n Comparison with class %c's reference values (epsilon 1.0e-08):\n", c->name);
    else
        printf("\n No reference values for %d steps of class %c: nothing compared\n", s->itmax,
               c->name);
    printf("%13s  %24s", "", "value");
    printf(checked ? "  %24s  %14s\n" : "\n", "reference", "relative error");
    printf(" RMS-norms of residual\n");
    for (m = 0; m < 5; m++)
        lu_row(m + 1, s->rsdnm[m], checked ? &c->xcr[m] : NULL, rel->xcr[m]);
    printf(" RMS-norms of solution error\n");
    for (m = 0; m < 5; m++)
        lu_row(m + 1, s->errnm[m], checked ? &c->xce[m] : NULL, rel->xce[m]);
    printf(" Surface integral\n");
    lu_row(0, s->frc, checked ? &c->xci : NULL, rel->xci);
}

static void lu_block(const struct lu_class *c, int iters, double secs, const char *verdict)
{
    printf("\n LU Benchmark Completed.\n");
    printf(" Class           = %24c\n", c->name);
    printf(" Size            =  %9s%4dx%4dx%4d\n", "", c->n, c->n, c->n);
    printf(" Iterations      = %24d\n", iters);
    printf(" Time in seconds = %24.2f\n", secs);
    printf(" Mop/s total     = %24.2f\n", lu_mops(c->n, iters, secs));
    printf(" Operation type  =           floating point\n");
    printf(" Verification    = %12s%s\n", "", verdict);
}

int main(int argc, char **argv)
{
    struct lu_class c;
    struct lu s;
    struct lu_rel rel;
    int iters, steps, rc, checked, ok;
    double t0, secs;

    rc = lu_args(argc, argv, &c, &iters);
    if (rc != 0)
        return rc == 1 ? 0 : 2;
    if (lu_init(&s, &c, iters) != 0) {
        fprintf(stderr, "lu_plain: out of memory for class %c's arrays (%d^3 points)\n", c.name,
                c.n);
        return 1;
    }
    printf("\n NAS Parallel Benchmarks 3.4 - LU, tilehybrid's plain sequential reference\n");
    printf(" Size: %4dx%4dx%4d\n Iterations: %5d\n", c.n, c.n, c.n, iters);
    lu_setup(&s);
    lu_ssor_start(&s);
    t0 = lu_now();
    steps = lu_ssor(&s);
    secs = lu_now() - t0;
    if (steps < iters)
        printf("\n convergence was achieved after %d pseudo-time steps\n", steps);
    lu_error(&s);
    lu_pintgr(&s);
    checked = iters == c.itmax;
    ok = lu_verify(&s, &c, &rel);
    lu_block(&c, iters, secs, !checked ? "NOT PERFORMED" : ok ? "  SUCCESSFUL" : "UNSUCCESSFUL");
    lu_report(&s, &c, &rel, checked);
    lu_free(&s);
    return checked && !ok ? 1 : 0;
}
