/* ------------------------------------------------------------------------
 * The split of a step's work
 * ------------------------------------------------------------------------ */

/* The master's count; arguments validated. */
static inline int64_t bal__master_count(int64_t total, int parts, double bal)
{
    double ideal;
    int64_t c, lo, hi;
    if (parts == 1)
        return total;
    ideal = bal * (double)total / (double)parts;
    c = (int64_t)(ideal + 0.5); /* round half up; ideal >= 0 */
    lo = (bal > 0 && total >= parts) ? 1 : 0;
    hi = total >= parts ? total - (parts - 1) : total;
    if (c < lo)
        c = lo;
    if (c > hi)
        c = hi;
    return c;
}

static inline int bal__split_check(int64_t total, int parts, double bal)
{
    if (total < 0)
        return BAL_ERR_TOTAL;
    if (parts < 1)
        return BAL_ERR_PARTS;
    if (!bal__finite(bal) || bal < 0 || bal > 1)
        return BAL_ERR_BAL;
    return BAL_OK;
}

#if TILEHYBRID__DEFINE
/* bal_split() -- documented at its declaration (05-api.h). */
TILEHYBRID__COLD int bal_split(int64_t total, int parts, double bal, int64_t *counts)
{
    int64_t master, rest, each, extra;
    int i, rc;
    if ((rc = bal__split_check(total, parts, bal)) != BAL_OK)
        return rc;
    if (counts == NULL)
        return BAL_ERR_NULL;
    master = bal__master_count(total, parts, bal);
    counts[0] = master;
    if (parts == 1)
        return BAL_OK;
    rest = total - master;
    each = rest / (parts - 1);
    extra = rest % (parts - 1);
    for (i = 1; i < parts; i++)
        counts[i] = each + (i - 1 < extra ? 1 : 0);
    return BAL_OK;
}
#endif

/* bal_split_part() -- documented at its declaration (05-api.h). */
static inline int bal_split_part(int64_t total, int parts, double bal, int part, int64_t *first,
                                 int64_t *count)
{
    int64_t master, rest, each, extra, j;
    int rc;
    if ((rc = bal__split_check(total, parts, bal)) != BAL_OK)
        return rc;
    if (part < 0 || part >= parts)
        return BAL_ERR_PART;
    if (first == NULL || count == NULL)
        return BAL_ERR_NULL;
    master = bal__master_count(total, parts, bal);
    if (part == 0) {
        *first = 0;
        *count = master;
        return BAL_OK;
    }
    rest = total - master;
    each = rest / (parts - 1);
    extra = rest % (parts - 1);
    j = part - 1;
    *first = master + j * each + (j < extra ? j : extra);
    *count = each + (j < extra ? 1 : 0);
    return BAL_OK;
}
