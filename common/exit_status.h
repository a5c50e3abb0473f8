/* The exit statuses of sudolab's commands. The libraries that decide one
 * (merge, count's split path) and the CLI share them, so they live below both. */
#ifndef SUDOLAB_COMMON_EXIT_STATUS_H
#define SUDOLAB_COMMON_EXIT_STATUS_H

enum exit_status {
    EXIT_STATUS_OK = 0,
    EXIT_STATUS_SKIPPED = 1, /* ran, but something was invalid, unreadable or wrong */
    EXIT_STATUS_USAGE = 2,
    /* ended early by a signal it caught (SIGINT, SIGTERM), after saving what
     * was done: 128 + the signal's number, as a shell reports a killed run */
    EXIT_STATUS_SIGNAL_BASE = 128,
};

#endif /* SUDOLAB_COMMON_EXIT_STATUS_H */
