/* tests/mpi_scatterlb_ordered.c -- slb_plan_scatter_ordered(), run at 1..4
 * ranks.
 *
 * Every rank's buffer after the ordered scatter is compared bitwise (the
 * whole buffer, padding included) with what a plain MPI_Scatterv over
 * MPI_COMM_WORLD, given the plan's counts and displacements, leaves there;
 * the root's sends are recorded through the MPI profiling interface (this
 * file defines MPI_Send and MPI_Send_c, which call PMPI_Send / PMPI_Send_c)
 * and must follow plan.order, ranks with no item skipped.  Cases: root 0,
 * the last rank and a middle one; bandwidth and given order; every method;
 * no item at all; items of a derived datatype whose extent is larger than
 * its size; MPI-4 large-count calls (MPI_Send_c). */
#include <mpi.h>

#include "scatterlb.h"

#include "check.h"

#include <stdlib.h>
#include <string.h>

static int size, rank;

/* ---- the root's sends, as the MPI library sees them ---- */

enum { MAXSENDS = 64 };
static int recording, nsends, sends[MAXSENDS];

static void note_send(int dest, int tag)
{
    if (recording && tag == TILEHYBRID_TAG_SCATTER && nsends < MAXSENDS)
        sends[nsends++] = dest;
}

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    note_send(dest, tag);
    return PMPI_Send(buf, count, type, dest, tag, comm);
}

#if defined(MPI_VERSION) && MPI_VERSION >= 4
int MPI_Send_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag,
               MPI_Comm comm)
{
    note_send(dest, tag);
    return PMPI_Send_c(buf, count, type, dest, tag, comm);
}
#endif

/* ---- helpers ---- */

/* Deterministic bytes (any bit pattern, NaN payloads included). */
static void fill_random(unsigned char *b, size_t len, uint64_t seed)
{
    size_t i;
    for (i = 0; i < len; i++) {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        b[i] = (unsigned char)(seed >> 24);
    }
}

/* The root's sends were the plan's order, empty ranks and the root left
 * out (every rank learns the verdict). */
static int sends_follow_order(const slb_plan *pl)
{
    int k, j = 0, ok = 1;
    if (rank == pl->root) {
        for (k = 0; k < pl->size; k++) {
            int r = pl->order[k];
            if (r == pl->root || pl->counts[r] == 0)
                continue;
            if (j >= nsends || sends[j] != r)
                ok = 0;
            j++;
        }
        if (j != nsends)
            ok = 0;
    }
    MPI_Bcast(&ok, 1, MPI_INT, pl->root, MPI_COMM_WORLD);
    return ok;
}

/* The reference: MPI_Scatterv over MPI_COMM_WORLD with the plan's counts
 * and displacements, in rank order. */
static int reference_scatterv(const slb_plan *pl, const void *all, void *mine)
{
    int *c = (int *)malloc((size_t)size * sizeof(int));
    int *d = (int *)malloc((size_t)size * sizeof(int));
    int r, rc;
    for (r = 0; r < size; r++) {
        c[r] = (int)pl->counts[r];
        d[r] = (int)pl->displs[r];
    }
    rc = MPI_Scatterv(all, c, d, pl->type, mine, c[rank], pl->type, pl->root, MPI_COMM_WORLD);
    free(c);
    free(d);
    return rc;
}

/* One case: plan n items of type (extent ext bytes), scatter them in order
 * and by MPI_Scatterv, compare. */
static void ordered_case(int root, int64_t n, MPI_Datatype type, MPI_Aint ext,
                         const slb_options *o, const char *what)
{
    slb_affine mine = check_slb_cost(rank, size);
    slb_plan pl;
    tilehybrid_status st;
    unsigned char *all = NULL, *a, *b, *c;
    size_t cap = (size_t)(n + 1) * (size_t)ext;
    int rc, same, in_order, same_v;
    rc = slb_plan_create(MPI_COMM_WORLD, root, n, type, &mine, o, &pl, &st);
    check_mpi(MPI_COMM_WORLD, rc == SLB_OK, "%s: plan (%s)", what, slb_strerror(rc));
    if (rc != SLB_OK)
        return;
    if (rank == root) {
        all = (unsigned char *)malloc(cap);
        fill_random(all, cap, 0x9E3779B97F4A7C15ull + (uint64_t)n);
    }
    a = (unsigned char *)malloc(cap);
    b = (unsigned char *)malloc(cap);
    c = (unsigned char *)malloc(cap);
    memset(a, 0xAB, cap); /* the same background: holes must stay equal */
    memset(b, 0xAB, cap);
    memset(c, 0xAB, cap);
    recording = 1;
    nsends = 0;
    rc = slb_plan_scatter_ordered(&pl, all, a, &st);
    recording = 0;
    in_order = sends_follow_order(&pl);
    rc = rc == SLB_OK && reference_scatterv(&pl, all, b) == MPI_SUCCESS &&
                 slb_plan_scatterv(&pl, all, c, NULL) == SLB_OK
             ? SLB_OK
             : SLB_ERR_MPI;
    same = memcmp(a, b, cap) == 0;
    same_v = memcmp(c, b, cap) == 0;
    check_mpi(MPI_COMM_WORLD, rc == SLB_OK && same && same_v,
              "%s: every rank's buffer equals MPI_Scatterv's bitwise (and slb_plan_scatterv's)",
              what);
    check_mpi(MPI_COMM_WORLD, in_order,
              "%s: the root sent in plan order, skipping empty ranks", what);
    slb_plan_free(&pl);
    free(all);
    free(a);
    free(b);
    free(c);
}

static void test_ordered(void)
{
    slb_options o = slb_options_default();
    MPI_Datatype vec, padded;
    char what[96];
    int m;
    ordered_case(0, 1000 + size, MPI_DOUBLE, sizeof(double), NULL, "doubles, root 0");
    ordered_case(size - 1, 777, MPI_INT, sizeof(int), NULL, "ints, last rank the root");
    ordered_case(size / 2, 3, MPI_INT, sizeof(int), NULL, "3 items (empty ranks), middle root");
    ordered_case(0, 0, MPI_INT, sizeof(int), NULL, "no item");
    for (m = SLB_METHOD_EXACT; m <= SLB_METHOD_UNIFORM; m++) {
        o.method = m;
        o.order = m == SLB_METHOD_UNIFORM ? SLB_ORDER_GIVEN : SLB_ORDER_BANDWIDTH;
        snprintf(what, sizeof what, "%s, %s order, root %d", slb_method_name(m),
                 o.order == SLB_ORDER_GIVEN ? "given" : "bandwidth", size > 1 ? 1 : 0);
        ordered_case(size > 1 ? 1 : 0, 500, MPI_INT, sizeof(int), &o, what);
    }
    /* 2 ints of every 3, resized to 4 ints: size 8 bytes, extent 16 */
    MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
    MPI_Type_create_resized(vec, 0, 4 * (MPI_Aint)sizeof(int), &padded);
    MPI_Type_commit(&padded);
    ordered_case(size - 1, 300, padded, 4 * (MPI_Aint)sizeof(int), NULL,
                 "derived datatype (extent 16, size 8), last rank the root");
    o = slb_options_default();
    o.large_count = 2; /* MPI_Send_c / MPI_Recv_c even for small counts */
    ordered_case(0, 999, padded, 4 * (MPI_Aint)sizeof(int), &o,
                 SLB__LARGE ? "MPI-4 large-count calls, derived datatype"
                            : "large_count = 2 (no MPI-4: int calls), derived datatype");
    MPI_Type_free(&padded);
    MPI_Type_free(&vec);
}

/* No plan: an error, named, on every rank, and nothing sent. */
static void test_ordered_errors(void)
{
    tilehybrid_status st;
    int rc = slb_plan_scatter_ordered(NULL, NULL, NULL, &st);
    check_mpi(MPI_COMM_WORLD, rc == SLB_ERR_ARG && strcmp(st.arg, "plan") == 0,
              "slb_plan_scatter_ordered without a plan: SLB_ERR_ARG naming 'plan'");
}

int main(int argc, char **argv)
{
    check_mpi_init(&argc, &argv, &rank, &size);
    test_ordered();
    test_ordered_errors();
    return check_mpi_exit();
}
