/* env.txt, the sidecar of a bench run: what a reader needs to trust or
 * reproduce its figures. `key: value` lines, one fact each, so scripts can
 * grep them. Its keys are one table (BENCH_ENV_KEYS) that every writer and
 * reader spells them from: this file (the machine, the build, the noise),
 * the bench session (bench/bench_session.h: the run's facts and outcome, and
 * --resume's check) and sudolab merge (scaleout/merge.h). */
#ifndef SUDOLAB_BENCH_BENCH_ENV_H
#define SUDOLAB_BENCH_BENCH_ENV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "solvers/solver.h"

/* Every key of env.txt, in the order a run writes them. scripts/report.sh,
 * scripts/plots.sh and the docs read them by these names too: a rename
 * breaks the env.txt files already written. */
#define BENCH_ENV_KEYS(X)                                                                \
    /* the machine and the build (bench_env_write_machine) */                            \
    X(DATE, "date")                                                                      \
    X(HOST, "host")                                                                      \
    X(KERNEL, "kernel")                                                                  \
    X(CPU, "cpu")                                                                        \
    X(CPU_SIMD, "cpu_simd")                                                              \
    X(CORES_ONLINE, "cores_online")                                                      \
    X(CORES_USABLE, "cores_usable")                                                      \
    X(GOVERNOR, "governor")                                                              \
    X(SUDOLAB, "sudolab")                                                                \
    X(GIT_REVISION, "git_revision")                                                      \
    X(COMPILER, "compiler")                                                              \
    X(BUILDTYPE, "buildtype")                                                            \
    X(BUILD_OPTIONS, "build_options")                                                    \
    X(C_ARGS, "c_args")                                                                  \
    X(NATIVE, "native")                                                                  \
    /* the run: what was asked and how it was read (the bench session) */                \
    X(COMMAND, "command")                                                                \
    X(SOLVERS, "solvers")                                                                \
    X(BASELINE, "baseline")                                                              \
    X(OUTSIDE, "outside")                                                                \
    X(SOLVER_SPEC, "solver_spec")                                                        \
    X(CORPUS, "corpus")                                                                  \
    X(LIMIT, "limit")                                                                    \
    X(BUDGET_MS, "budget_ms")                                                            \
    X(BUDGET_STEPS, "budget_steps")                                                      \
    X(REPEAT, "repeat")                                                                  \
    X(THREADS, "threads")                                                                \
    X(WARMUP_MS, "warmup_ms")                                                            \
    X(PASS_MS, "pass_ms")                                                                \
    X(FAST_US, "fast_us")                                                                \
    X(TDOKU_PROTOCOL, "tdoku_protocol")                                                  \
    X(PERMUTE, "permute")                                                                \
    X(SEED, "seed")                                                                      \
    X(SEEDS, "seeds")                                                                    \
    X(HEAD, "head")                                                                      \
    X(SAMPLE, "sample")                                                                  \
    X(SE_RATE, "se_rate")                                                                \
    X(SE_RATE_MS, "se_rate_ms")                                                          \
    X(SHARD, "shard")                                                                    \
    X(CORPUS_FINGERPRINT, "corpus_fingerprint")                                          \
    X(RESUME, "resume")                                                                  \
    X(TIMER_OVERHEAD_NS, "timer_overhead_ns")                                            \
    X(TIMER_RESOLUTION_NS, "timer_resolution_ns")                                        \
    X(ISA_PATH, "isa_path")                                                              \
    /* the noise before the run (bench_env_write_before) */                              \
    X(LOADAVG_BEFORE, "loadavg_before")                                                  \
    X(CPU_MHZ_BEFORE, "cpu_mhz_before")                                                  \
    /* after it: whole passes (the bench session), noise (bench_env_write_after) */      \
    X(PASS, "pass")                                                                      \
    X(LOADAVG_AFTER, "loadavg_after")                                                    \
    X(CPU_MHZ_AFTER, "cpu_mhz_after")                                                    \
    X(OTHER_BUSY_CORES, "other_busy_cores")                                              \
    X(OTHER_BUSY_SHARE, "other_busy_share")                                              \
    X(STEAL_SHARE, "steal_share")                                                        \
    X(SELF_CORES, "self_cores")                                                          \
    X(QUIET, "quiet")                                                                    \
    /* the outcome (the bench session; merge writes its own) */                          \
    X(WALL_S, "wall_s")                                                                  \
    X(ROWS_RESUMED, "rows_resumed")                                                      \
    X(RUNS_PENDING, "runs_pending")                                                      \
    X(ROWS, "rows")                                                                      \
    X(DISAGREEMENTS, "disagreements")                                                    \
    X(ERRORS, "errors")                                                                  \
    X(FAILURE, "failure")                                                                \
    X(FINISHED, "finished")                                                              \
    /* the first line of a merged env.txt (sudolab merge) */                             \
    X(MERGED, "merged")

enum bench_env_key {
#define BENCH_ENV_ENUM(id, name) BENCH_ENV_##id,
    BENCH_ENV_KEYS(BENCH_ENV_ENUM)
#undef BENCH_ENV_ENUM
        BENCH_ENV_NKEYS
};

/* The line that opens each section a --resume appends: the facts after it
 * are the continued run's. */
#define BENCH_ENV_RESUMED "--- resumed ---"

/* The key as env.txt spells it. */
const char *bench_env_key_name(enum bench_env_key key);

/* Writes one `key: value` line, the value formatted as by printf. (nonnull
 * also tells gcc's -fsanitize=undefined build that fmt is never NULL, which
 * it would otherwise warn of.) */
void bench_env_put(FILE *out, enum bench_env_key key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4), nonnull(1, 3)));

/* ---- Reading env.txt back ---- */

struct bench_env_line {
    char *key, *value; /* the key as written, known to this build or not */
};

/* An env.txt as read: its `key: value` lines (other lines are left out)
 * and the whole text. */
struct bench_env_file {
    struct bench_env_line *lines;
    size_t nlines;
    size_t last_section; /* the first line after the last BENCH_ENV_RESUMED */
    char *text; /* NUL-terminated */
    size_t text_len;
};

/* Reads path into *env. Returns 0; -1 when it cannot be opened (errno says
 * why); -2 when out of memory. Free *env with bench_env_file_free in every
 * case. */
int bench_env_read(struct bench_env_file *env, const char *path);
void bench_env_file_free(struct bench_env_file *env);

/* The last value of key in the last section (the run a --resume continued
 * last), or NULL. */
const char *bench_env_get(const struct bench_env_file *env, enum bench_env_key key);

/* The last value of key anywhere in the file, or NULL. */
const char *bench_env_get_latest(
    const struct bench_env_file *env, enum bench_env_key key);

/* The values of a key written once per item (corpus_fingerprint, pass,
 * solver_spec), in the last section: the next one after line *at (start
 * with *at = 0), or NULL after the last. */
const char *bench_env_next(
    const struct bench_env_file *env, enum bench_env_key key, size_t *at);

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
