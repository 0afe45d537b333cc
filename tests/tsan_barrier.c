/* tests/tsan_barrier.c -- make check-tsan's second control: each thread
 * reads what the other wrote before an OpenMP barrier.  No race: the
 * barrier orders them, but ThreadSanitizer sees that only through Archer
 * (the LLVM OpenMP runtime's tool); without it this reports a false race.
 * tests/run.sh --tsan wants exit 0 and no report. */
#include <omp.h>
#include <stdio.h>

int main(void)
{
    static int a[2], b[2];
#pragma omp parallel num_threads(2)
    {
        int me = omp_get_thread_num();
        a[me] = me + 1;
#pragma omp barrier
        b[me] = a[1 - me]; /* the other thread's write, before the barrier */
    }
    printf("b %d %d\n", b[0], b[1]);
    return b[0] != 2 || b[1] != 1;
}
