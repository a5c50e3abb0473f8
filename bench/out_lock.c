#include "bench/out_lock.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* The pid a lock file records, 0 when it records none (empty: its holder
 * had not written it yet, or it was made by hand). */
static long read_holder(int fd)
{
    char buf[32];
    const ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
    if (n <= 0)
        return 0;
    buf[n] = '\0';
    const long pid = strtol(buf, NULL, 10);
    return pid > 0 ? pid : 0;
}

/* Whether fd is still the file at path: a holder that ends removes the file,
 * and a lock taken on a removed file would lock nothing. */
static bool still_linked(int fd, const char *path)
{
    struct stat open_sb, path_sb;
    return fstat(fd, &open_sb) == 0 && stat(path, &path_sb) == 0
        && open_sb.st_dev == path_sb.st_dev && open_sb.st_ino == path_sb.st_ino;
}

static int refuse_held(
    struct out_lock *lock, int fd, const char *dir, const char *who, FILE *err)
{
    const long holder = read_holder(fd);
    char pid[64] = "a process that has not written its pid yet";
    if (holder)
        snprintf(pid, sizeof(pid), "pid %ld", holder);
    fprintf(err,
        "%s: %s is being written by another run: %s is held by %s (wait for it to "
        "end, or choose another output)\n",
        who, dir, lock->path, pid);
    close(fd);
    return -1;
}

/* Records this process as the holder, after noting a holder that died. */
static int claim(struct out_lock *lock, int fd, const char *who, FILE *err)
{
    const long stale = read_holder(fd);
    if (stale && stale != (long) getpid())
        fprintf(err,
            "%s: note: taking over the stale lock %s (pid %ld is no longer "
            "running it)\n",
            who, lock->path, stale);
    char text[32];
    const int len = snprintf(text, sizeof(text), "%ld\n", (long) getpid());
    if (ftruncate(fd, 0) != 0 || pwrite(fd, text, (size_t) len, 0) != len) {
        fprintf(err, "%s: %s: %s\n", who, lock->path, strerror(errno));
        unlink(lock->path);
        close(fd);
        return -1;
    }
    lock->fd = fd;
    return 0;
}

int out_lock_take(struct out_lock *lock, const char *dir, const char *who, FILE *err)
{
    lock->fd = -1;
    if (snprintf(lock->path, sizeof(lock->path), "%s/%s", dir, OUT_LOCK_NAME)
        >= (int) sizeof(lock->path)) {
        fprintf(err, "%s: %s: %s\n", who, dir, strerror(ENAMETOOLONG));
        return -1;
    }
    for (int attempt = 0; attempt < 100; attempt++) {
        const int fd = open(lock->path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
        if (fd < 0) {
            fprintf(err, "%s: %s: %s\n", who, lock->path, strerror(errno));
            return -1;
        }
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            if (errno == EWOULDBLOCK)
                return refuse_held(lock, fd, dir, who, err);
            fprintf(err, "%s: %s: %s\n", who, lock->path, strerror(errno));
            close(fd);
            return -1;
        }
        if (still_linked(fd, lock->path))
            return claim(lock, fd, who, err);
        close(fd); /* its holder removed it as we opened it: again */
    }
    fprintf(err, "%s: %s: could not be taken (it keeps changing)\n", who, lock->path);
    return -1;
}

void out_lock_release(struct out_lock *lock)
{
    if (lock->fd < 0)
        return;
    /* removed before it is let go: a run waiting on it then finds it gone */
    unlink(lock->path);
    close(lock->fd);
    lock->fd = -1;
}
