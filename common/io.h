/* Files and directories, with errors the caller reports. */
#ifndef SUDOLAB_COMMON_IO_H
#define SUDOLAB_COMMON_IO_H

#include <stdbool.h>
#include <stddef.h>

/* Writes all len bytes to fd, retrying short writes and EINTR. Returns false,
 * with errno set, when a write fails. */
bool io_write_all(int fd, const void *data, size_t len);
/* mkdir -p: creates path and its missing parents. Returns 0, or -1 with errno. */
int io_make_dirs(const char *path);

#endif /* SUDOLAB_COMMON_IO_H */
