/* Files and directories, with errors the caller reports. */
#ifndef SUDOLAB_COMMON_IO_H
#define SUDOLAB_COMMON_IO_H

/* mkdir -p: creates path and its missing parents. Returns 0, or -1 with errno. */
int io_make_dirs(const char *path);

#endif /* SUDOLAB_COMMON_IO_H */
