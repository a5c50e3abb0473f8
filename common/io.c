#include "common/io.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool io_write_all(int fd, const void *data, size_t len)
{
    const char *p = data;
    while (len > 0) {
        const ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        p += n;
        len -= (size_t) n;
    }
    return true;
}

int io_make_dirs(const char *path)
{
    char buf[4096];
    if (snprintf(buf, sizeof(buf), "%s", path) >= (int) sizeof(buf)) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    return mkdir(buf, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

/* Why the first failed io_flush_stdout failed; 0 when none did. */
static int stdout_flush_errno;

void io_flush_stdout(void)
{
    errno = 0;
    if (fflush(stdout) != 0 && stdout_flush_errno == 0)
        stdout_flush_errno = errno;
}

/* io_close_stream; earlier_errno: why an earlier write failed, when known. */
static int close_stream(FILE *f, const char *who, const char *name, int earlier_errno)
{
    errno = 0;
    bool ok = fflush(f) == 0;
    int why = ok ? 0 : errno;
    ok = ok && !ferror(f);
    if (fclose(f) != 0) {
        why = why != 0 ? why : errno;
        ok = false;
    }
    if (ok)
        return 0;
    why = why != 0 ? why : earlier_errno;
    fprintf(stderr, "%s: %s: %s\n", who, name,
        why != 0 ? strerror(why) : "a write failed, the output is incomplete");
    return -1;
}

int io_close_stream(FILE *f, const char *who, const char *name)
{
    return close_stream(f, who, name, 0);
}

int io_close_stdout(const char *who, const char *name)
{
    static bool closed = false;
    static int result = 0;
    if (!closed) {
        closed = true;
        result = close_stream(stdout, who, name ? name : "<stdout>", stdout_flush_errno);
    }
    return result;
}
