/* env.txt, the sidecar of a bench run: what a reader needs to trust or
 * reproduce its figures. `key: value` lines, one fact each, so scripts can
 * grep them. This part writes the facts about the machine and the build; the
 * driver adds the command line, options, seed and timer figures. */
#ifndef SUDOLAB_BENCH_BENCH_ENV_H
#define SUDOLAB_BENCH_BENCH_ENV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "solvers/solver.h"

/* date, host, kernel, CPU model, cores, affinity, governor, compiler, build
 * type and flags, sudolab version and git revision. */
void bench_env_write_machine(FILE *out);

/* The git revision sudolab was built from ("unknown" outside a checkout). */
const char *bench_env_revision(void);

/* ---- What makes a run noisy ----
 * Read from /proc and /sys under `root`: "" is this machine; the tests give
 * a directory of made-up files. */

/* The load average (runnable tasks, over 1, 5 and 15 minutes) from
 * ROOT/proc/loadavg. false when unreadable. */
bool bench_env_read_loadavg(const char *root, double load[3]);

/* The cores' clock frequency at one moment. */
struct bench_cpu_freq {
    double min_mhz, mean_mhz, max_mhz;
    unsigned cores;
    const char *source; /* "scaling_cur_freq" or "cpuinfo" */
};

/* From ROOT/sys/devices/system/cpu/cpuN/cpufreq/scaling_cur_freq (kHz) for
 * every cpuN directory, else from the "cpu MHz" lines of ROOT/proc/cpuinfo.
 * false when neither is readable (as in many virtual machines). */
bool bench_env_read_cpu_freq(const char *root, struct bench_cpu_freq *f);

/* CPU time spent up to one moment, by the whole machine and by this process. */
struct bench_cpu_times {
    bool machine_known; /* ROOT/proc/stat was readable */
    double busy_s; /* all cores: user, nice, system, irq, softirq and steal */
    double steal_s; /* all cores: taken by the hypervisor for other guests */
    double total_s; /* all cores: busy, idle and iowait */
    double self_s; /* this process, all its threads: user and system */
    double wall_s; /* CLOCK_MONOTONIC */
};

void bench_env_read_cpu_times(const char *root, struct bench_cpu_times *t);

/* What others took of the machine between two readings. The run was quiet
 * when other processes kept under BENCH_QUIET_OTHER_CORES cores busy on
 * average and the hypervisor stole under BENCH_QUIET_STEAL_SHARE of the
 * cores' time. Runs under BENCH_QUIET_MIN_WALL_S are not judged: /proc/stat
 * counts in clock ticks (10 ms), too coarse for them. The load average is
 * recorded but not judged: the build that usually precedes a run keeps it
 * high for minutes after the machine has gone quiet. */
#define BENCH_QUIET_OTHER_CORES 0.1
#define BENCH_QUIET_STEAL_SHARE 0.01
#define BENCH_QUIET_MIN_WALL_S 1.0

enum bench_quiet { BENCH_QUIET_UNKNOWN, BENCH_QUIET_YES, BENCH_QUIET_NO };

struct bench_noise {
    double other_busy_cores; /* mean number of cores others kept busy */
    double other_busy_share; /* the same as a share of all the cores' time */
    double steal_share; /* of all the cores' time */
    double self_cores; /* mean number of cores this process kept busy */
    enum bench_quiet quiet;
    char why[200]; /* what was not quiet, or why it is unknown */
};

void bench_env_noise(const struct bench_cpu_times *before,
    const struct bench_cpu_times *after, struct bench_noise *out);

/* env.txt lines before a run: loadavg_before, cpu_mhz_before. */
void bench_env_write_before(FILE *out, const char *root);

/* env.txt lines after it: loadavg_after, cpu_mhz_after, other_busy_cores,
 * other_busy_share, steal_share, self_cores and quiet (yes, no or unknown,
 * with why), the run being the span between the two readings. */
void bench_env_write_after(FILE *out, const char *root,
    const struct bench_cpu_times *before, const struct bench_cpu_times *after);

/* The instruction-set path a back end runs on this CPU: fast's or wide's
 * chosen one (solvers/fast.h, solvers/wide.h: avx512, avx2 or portable);
 * "generic" for the other
 * registered back ends (plain C with no code for a particular instruction
 * set, compiled with the build's flags: see `native`); "unknown" for one
 * from outside the registry. */
const char *bench_env_isa_path(const struct solver *s);

/* One `isa_path: SOLVER PATH` line per back end. */
void bench_env_write_isa_paths(FILE *out, const struct solver *const *solvers, size_t n);

#endif /* SUDOLAB_BENCH_BENCH_ENV_H */
