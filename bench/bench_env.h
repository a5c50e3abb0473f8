/* env.txt, the sidecar of a bench run: what a reader needs to trust or
 * reproduce its figures. `key: value` lines, one fact each, so scripts can
 * grep them. This part writes the facts about the machine and the build; the
 * driver adds the command line, options, seed and timer figures. */
#ifndef SUDOLAB_BENCH_BENCH_ENV_H
#define SUDOLAB_BENCH_BENCH_ENV_H

#include <stdio.h>

/* date, host, kernel, CPU model, cores, affinity, governor, compiler, build
 * type and flags, sudolab version and git revision. */
void bench_env_write_machine(FILE *out);

/* The git revision sudolab was built from ("unknown" outside a checkout). */
const char *bench_env_revision(void);

#endif /* SUDOLAB_BENCH_BENCH_ENV_H */
