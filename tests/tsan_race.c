/* tests/tsan_race.c -- make check-tsan's first control: two threads write
 * one variable with nothing ordering the writes, a data race that
 * ThreadSanitizer must report (tests/run.sh --tsan wants exit 66 and the
 * report), so a check-tsan that cannot see races does not pass. */
#include <stdio.h>

int main(void)
{
    int x = 0;
#pragma omp parallel num_threads(2)
    x++; /* both threads, no order: the race */
    printf("x %d\n", x);
    return 0;
}
