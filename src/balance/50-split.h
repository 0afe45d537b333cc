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
/**
 * bal_split() - split a step's work between the threads.
 * @total:  units (points, rows, ...) of one step, >= 0;
 * @parts:  >= 1 contiguous ranges: part 0 for the master thread, parts
 *          1..parts-1 for the others, in this order;
 * @bal:    the factor in [0,1] (bal_factor() or the adaptive state's bal);
 * @counts: receives parts counts; counts[i] units go to part i, and part i
 *          starts at counts[0] + ... + counts[i-1].
 *
 * Rounding, exactly:
 *   - parts == 1: counts[0] = total (whatever bal is);
 *   - master: ideal = bal * total / parts, rounded half up to an integer,
 *     then raised to 1 if it came out 0 while bal > 0 and total >= parts,
 *     and lowered so that every other part can get >= 1 when total >= parts
 *     (never needed for bal <= 1, kept as a guard). So |counts[0] - ideal| < 1
 *     and counts[0] == 0 only if bal == 0 or ideal < 1/2 with total < parts;
 *   - the others: rest = total - counts[0] evenly, rest/(parts-1) each, the
 *     first rest%(parts-1) of them one more, so they differ by at most 1 and
 *     none gets 0 when total >= parts.
 *   The counts sum to total exactly.  bal = 1 is an (almost) even split.
 *
 * Return: BAL_OK, BAL_ERR_TOTAL (< 0), BAL_ERR_PARTS (< 1), BAL_ERR_BAL or
 * BAL_ERR_NULL.
 */
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
#else
TILEHYBRID__COLD int bal_split(int64_t total, int parts, double bal, int64_t *counts);
#endif

/**
 * bal_split_part() - one part of bal_split() without an array: for a thread
 * that computes its own range inside a parallel region.
 * @total, @parts, @bal: as for bal_split();
 * @part:  0 (master) .. parts-1;
 * @first: receives the first unit of the part (0-based);
 * @count: receives its number of units; identical to bal_split()'s
 *         counts[part].
 *
 * Return: BAL_OK or the errors of bal_split(), BAL_ERR_PART for a bad part.
 */
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
