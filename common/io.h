/* Files and directories, with errors the caller reports. */
#ifndef SUDOLAB_COMMON_IO_H
#define SUDOLAB_COMMON_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Writes all len bytes to fd, retrying short writes and EINTR. Returns false,
 * with errno set, when a write fails. */
bool io_write_all(int fd, const void *data, size_t len);
/* mkdir -p: creates path and its missing parents. Returns 0, or -1 with errno. */
int io_make_dirs(const char *path);

/* Flushes and closes f, the output called name. When that or any earlier
 * write to f failed, says "who: name: reason" on stderr and returns -1 (the
 * output is incomplete); returns 0 when every byte reached the file. */
int io_close_stream(FILE *f, const char *who, const char *name);
/* fflush(stdout) in the middle of a run, remembering why it failed: the data
 * a failed flush held is dropped, so io_close_stdout could not tell. */
void io_flush_stdout(void);
/* io_close_stream for stdout (name NULL: "<stdout>"), done once: later calls
 * return the first one's result without a word. So a command that closes
 * stdout itself (merge --out, which names its file) and the program's final
 * check, which catches every other command's lost output, report one
 * failure once. */
int io_close_stdout(const char *who, const char *name);

#endif /* SUDOLAB_COMMON_IO_H */
