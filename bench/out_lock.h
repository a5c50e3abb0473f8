/* One run per output: a lock file in a results directory, so that two runs
 * writing into the same --out DIR at once are refused instead of
 * interleaving their rows.
 *
 * The lock is DIR/sudolab.lock holding the holder's pid. What holds it is an
 * flock(2) on that file, which the kernel drops whenever the holder ends,
 * however it ends (SIGKILL included); so a lock file left behind by a run
 * that could not remove it is told from a live one and taken over, with a
 * note naming the dead holder. */
#ifndef SUDOLAB_BENCH_OUT_LOCK_H
#define SUDOLAB_BENCH_OUT_LOCK_H

#include <stdio.h>

enum { OUT_LOCK_PATH_MAX = 4200 };

struct out_lock {
    int fd; /* -1: not held */
    char path[OUT_LOCK_PATH_MAX];
};

/* The name of the lock file in every locked directory. */
#define OUT_LOCK_NAME "sudolab.lock"

/* Takes the lock of directory dir (which must exist) for this process.
 * Returns 0; or -1 after saying on err, as "who: ...", that another live
 * process holds it (naming the lock file and the holder's pid) or why the
 * lock could not be made. A stale lock is taken over with a note on err. */
int out_lock_take(struct out_lock *lock, const char *dir, const char *who, FILE *err);

/* Removes the lock file and lets go of the lock (nothing when not held). */
void out_lock_release(struct out_lock *lock);

#endif /* SUDOLAB_BENCH_OUT_LOCK_H */
