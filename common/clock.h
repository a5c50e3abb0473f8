/* Monotonic time in nanoseconds, the one clock sudolab times with. */
#ifndef SUDOLAB_COMMON_CLOCK_H
#define SUDOLAB_COMMON_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t clock_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

/* CPU time of the calling thread: what a sample costs on a loaded machine,
 * where the monotonic clock also counts the time other programs ran. */
static inline uint64_t clock_thread_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

#endif /* SUDOLAB_COMMON_CLOCK_H */
