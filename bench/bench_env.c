#include "bench/bench_env.h"

#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "bench/bench_rev.h"
#include "common/clock.h"
#include "config.h"
#include "solvers/fast.h"
#include "solvers/registry.h"
#include "solvers/wide.h"

const char *bench_env_revision(void)
{
    return BENCH_GIT_REVISION;
}

static const char *const key_names[BENCH_ENV_NKEYS] = {
#define BENCH_ENV_NAME(id, name) [BENCH_ENV_##id] = name,
    BENCH_ENV_KEYS(BENCH_ENV_NAME)
#undef BENCH_ENV_NAME
};

const char *bench_env_key_name(enum bench_env_key key)
{
    return key_names[key];
}

void bench_env_put(FILE *out, enum bench_env_key key, const char *fmt, ...)
{
    fputs(key_names[key], out);
    fputs(": ", out);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(out, fmt, ap);
    va_end(ap);
    fputc('\n', out);
}

/* ---- reading env.txt back ---- */

static void free_lines(struct bench_env_line *lines, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(lines[i].key);
        free(lines[i].value);
    }
}

void bench_env_file_free(struct bench_env_file *env)
{
    free_lines(env->lines, env->nlines);
    free(env->lines);
    free(env->text);
    memset(env, 0, sizeof(*env));
}

/* Appends a line as read to env->text. Returns false when out of memory. */
static bool keep_text(
    struct bench_env_file *env, size_t *cap, const char *line, size_t len)
{
    if (env->text_len + len + 1 > *cap) {
        const size_t grown_cap = 2 * (env->text_len + len + 1);
        char *grown = realloc(env->text, grown_cap);
        if (!grown)
            return false;
        env->text = grown;
        *cap = grown_cap;
    }
    memcpy(env->text + env->text_len, line, len);
    env->text_len += len;
    env->text[env->text_len] = '\0';
    return true;
}

/* Appends `key: value` (line, its line break cut off) to env->lines.
 * Returns false when out of memory. */
static bool keep_fact(struct bench_env_file *env, char *line)
{
    char *colon = strstr(line, ": ");
    if (!colon)
        return true;
    *colon = '\0';
    struct bench_env_line *grown
        = realloc(env->lines, (env->nlines + 1) * sizeof(*grown));
    if (!grown)
        return false;
    env->lines = grown;
    struct bench_env_line *l = &env->lines[env->nlines++];
    l->key = strdup(line);
    l->value = strdup(colon + 2);
    return l->key && l->value;
}

int bench_env_read(struct bench_env_file *env, const char *path)
{
    memset(env, 0, sizeof(*env));
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char *line = NULL;
    size_t cap = 0, text_cap = 0;
    bool ok = true;
    ssize_t got;
    while (ok && (got = getline(&line, &cap, f)) > 0) {
        ok = keep_text(env, &text_cap, line, (size_t) got);
        line[strcspn(line, "\r\n")] = '\0';
        if (strcmp(line, BENCH_ENV_RESUMED) == 0)
            env->last_section = env->nlines;
        else if (ok)
            ok = keep_fact(env, line);
    }
    free(line);
    fclose(f);
    return ok ? 0 : -2;
}

static const char *last_value(
    const struct bench_env_file *env, size_t from, enum bench_env_key key)
{
    const char *v = NULL;
    for (size_t i = from; i < env->nlines; i++) {
        if (strcmp(env->lines[i].key, key_names[key]) == 0)
            v = env->lines[i].value;
    }
    return v;
}

const char *bench_env_get(const struct bench_env_file *env, enum bench_env_key key)
{
    return last_value(env, env->last_section, key);
}

const char *bench_env_get_latest(const struct bench_env_file *env, enum bench_env_key key)
{
    return last_value(env, 0, key);
}

const char *bench_env_next(
    const struct bench_env_file *env, enum bench_env_key key, size_t *at)
{
    for (size_t i = *at > env->last_section ? *at : env->last_section; i < env->nlines;
         i++) {
        if (strcmp(env->lines[i].key, key_names[key]) == 0) {
            *at = i + 1;
            return env->lines[i].value;
        }
    }
    *at = env->nlines;
    return NULL;
}

/* The value of the first "key<spaces>: value" line of a file like
 * /proc/cpuinfo, or false. */
static bool read_keyed(const char *path, const char *key, char *out, size_t len)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    char line[8192]; /* /proc/cpuinfo's flags line runs past 1,000 bytes */
    bool found = false;
    const size_t klen = strlen(key);
    while (!found && fgets(line, sizeof(line), f)) {
        if (strncmp(line, key, klen) != 0)
            continue;
        const char *colon = strchr(line + klen, ':');
        if (!colon)
            continue;
        colon++;
        while (*colon == ' ' || *colon == '\t')
            colon++;
        snprintf(out, len, "%s", colon);
        out[strcspn(out, "\r\n")] = '\0';
        found = true;
    }
    fclose(f);
    return found;
}

static bool read_first_line(const char *path, char *out, size_t len)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    const bool ok = fgets(out, (int) len, f) != NULL;
    fclose(f);
    if (ok)
        out[strcspn(out, "\r\n")] = '\0';
    return ok;
}

void bench_env_write_machine(FILE *out)
{
    char buf[256];
    const time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
    bench_env_put(out, BENCH_ENV_DATE, "%s", buf);
    if (gethostname(buf, sizeof(buf)) == 0) {
        buf[sizeof(buf) - 1] = '\0';
        bench_env_put(out, BENCH_ENV_HOST, "%s", buf);
    }
    struct utsname u;
    if (uname(&u) == 0)
        bench_env_put(out, BENCH_ENV_KERNEL, "%s %s %s", u.sysname, u.release, u.machine);
    if (read_keyed("/proc/cpuinfo", "model name", buf, sizeof(buf)))
        bench_env_put(out, BENCH_ENV_CPU, "%s", buf);
    char flags[8192];
    if (read_keyed("/proc/cpuinfo", "flags", flags, sizeof(flags))) {
        /* the instruction sets the bitboard back ends choose between */
        static const char *const simd[]
            = { "sse4_2", "avx2", "bmi2", "avx512f", "avx512bw", "avx512vl" };
        char padded[8200]; /* spaces around every flag: whole words only */
        snprintf(padded, sizeof(padded), " %s ", flags);
        /* "cpu_simd:" alone when it has none of them */
        fprintf(out, "%s:", bench_env_key_name(BENCH_ENV_CPU_SIMD));
        for (size_t i = 0; i < sizeof(simd) / sizeof(simd[0]); i++) {
            char word[32];
            snprintf(word, sizeof(word), " %s ", simd[i]);
            if (strstr(padded, word))
                fprintf(out, " %s", simd[i]);
        }
        fputc('\n', out);
    }
    bench_env_put(out, BENCH_ENV_CORES_ONLINE, "%ld", sysconf(_SC_NPROCESSORS_ONLN));
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof(set), &set) == 0)
        bench_env_put(out, BENCH_ENV_CORES_USABLE, "%d", CPU_COUNT(&set));
    if (read_first_line(
            "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", buf, sizeof(buf)))
        bench_env_put(out, BENCH_ENV_GOVERNOR, "%s", buf);
    else
        bench_env_put(out, BENCH_ENV_GOVERNOR, "n/a");
    bench_env_put(out, BENCH_ENV_SUDOLAB, "%s", SUDOLAB_VERSION);
    bench_env_put(out, BENCH_ENV_GIT_REVISION, "%s", bench_env_revision());
    bench_env_put(out, BENCH_ENV_COMPILER, "%s", SUDOLAB_COMPILER);
    bench_env_put(out, BENCH_ENV_BUILDTYPE, "%s", SUDOLAB_BUILDTYPE);
#ifdef SUDOLAB_BUILD_OPTIONS
    bench_env_put(out, BENCH_ENV_BUILD_OPTIONS, "%s", SUDOLAB_BUILD_OPTIONS);
#endif
    bench_env_put(
        out, BENCH_ENV_C_ARGS, "%s", SUDOLAB_CFLAGS[0] ? SUDOLAB_CFLAGS : "(none)");
    bench_env_put(
        out, BENCH_ENV_NATIVE, "%s", SUDOLAB_NATIVE ? "yes (-march=native)" : "no");
}

/* ---- what makes a run noisy ---- */

bool bench_env_read_loadavg(const char *root, double load[3])
{
    char path[4200], line[256];
    snprintf(path, sizeof(path), "%s/proc/loadavg", root);
    return read_first_line(path, line, sizeof(line))
        && sscanf(line, "%lf %lf %lf", &load[0], &load[1], &load[2]) == 3;
}

static void add_mhz(struct bench_cpu_freq *f, double mhz)
{
    if (f->cores == 0 || mhz < f->min_mhz)
        f->min_mhz = mhz;
    if (f->cores == 0 || mhz > f->max_mhz)
        f->max_mhz = mhz;
    f->mean_mhz = (f->mean_mhz * f->cores + mhz) / (f->cores + 1);
    f->cores++;
}

/* Every cpuN directory until one is missing; offline cores have no cpufreq. */
static void read_scaling_cur_freq(const char *root, struct bench_cpu_freq *f)
{
    for (unsigned n = 0; n < 65536; n++) {
        char path[4200], line[64];
        struct stat st;
        snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/cpu%u", root, n);
        if (stat(path, &st) != 0)
            break;
        snprintf(path, sizeof(path),
            "%s/sys/devices/system/cpu/cpu%u/cpufreq/scaling_cur_freq", root, n);
        double khz;
        if (read_first_line(path, line, sizeof(line)) && sscanf(line, "%lf", &khz) == 1
            && khz > 0)
            add_mhz(f, khz / 1000);
    }
}

static void read_cpuinfo_mhz(const char *root, struct bench_cpu_freq *f)
{
    char path[4200], line[8192];
    snprintf(path, sizeof(path), "%s/proc/cpuinfo", root);
    FILE *in = fopen(path, "r");
    if (!in)
        return;
    while (fgets(line, sizeof(line), in)) {
        const char *colon = strchr(line, ':');
        double mhz;
        if (strncmp(line, "cpu MHz", 7) == 0 && colon
            && sscanf(colon + 1, "%lf", &mhz) == 1 && mhz > 0)
            add_mhz(f, mhz);
    }
    fclose(in);
}

bool bench_env_read_cpu_freq(const char *root, struct bench_cpu_freq *f)
{
    memset(f, 0, sizeof(*f));
    f->source = "scaling_cur_freq";
    read_scaling_cur_freq(root, f);
    if (f->cores == 0) {
        f->source = "cpuinfo";
        read_cpuinfo_mhz(root, f);
    }
    return f->cores > 0;
}

void bench_env_read_cpu_times(const char *root, struct bench_cpu_times *t)
{
    memset(t, 0, sizeof(*t));
    t->wall_s = (double) clock_now_ns() / 1e9;
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) == 0)
        t->self_s = (double) ru.ru_utime.tv_sec + (double) ru.ru_utime.tv_usec / 1e6
            + (double) ru.ru_stime.tv_sec + (double) ru.ru_stime.tv_usec / 1e6;
    char path[4200], line[512];
    snprintf(path, sizeof(path), "%s/proc/stat", root);
    /* cpu user nice system idle iowait irq softirq steal (guest time is
     * already in user) */
    unsigned long long v[8];
    const long hz = sysconf(_SC_CLK_TCK);
    if (!read_first_line(path, line, sizeof(line)) || strncmp(line, "cpu ", 4) != 0
        || sscanf(line + 4, "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1],
               &v[2], &v[3], &v[4], &v[5], &v[6], &v[7])
            != 8
        || hz <= 0)
        return;
    const double tick = 1.0 / (double) hz;
    t->machine_known = true;
    t->busy_s = (double) (v[0] + v[1] + v[2] + v[5] + v[6] + v[7]) * tick;
    t->steal_s = (double) v[7] * tick;
    t->total_s = t->busy_s + (double) (v[3] + v[4]) * tick;
}

void bench_env_noise(const struct bench_cpu_times *before,
    const struct bench_cpu_times *after, struct bench_noise *out)
{
    memset(out, 0, sizeof(*out));
    out->other_busy_cores = out->other_busy_share = out->steal_share = NAN;
    const double wall = after->wall_s - before->wall_s;
    const double self = after->self_s - before->self_s;
    out->self_cores = wall > 0 ? self / wall : NAN;
    const double total = after->total_s - before->total_s;
    if (!before->machine_known || !after->machine_known || wall <= 0 || total <= 0) {
        out->quiet = BENCH_QUIET_UNKNOWN;
        snprintf(out->why, sizeof(out->why), "the machine's CPU time is not readable");
        return;
    }
    double other = after->busy_s - before->busy_s - self;
    other = other > 0 ? other : 0; /* ticks against exact times */
    out->other_busy_cores = other / wall;
    out->other_busy_share = other / total;
    out->steal_share = (after->steal_s - before->steal_s) / total;
    if (wall < BENCH_QUIET_MIN_WALL_S) {
        out->quiet = BENCH_QUIET_UNKNOWN;
        snprintf(out->why, sizeof(out->why),
            "the run took under %.0f s, too short to tell", BENCH_QUIET_MIN_WALL_S);
    } else if (out->other_busy_cores >= BENCH_QUIET_OTHER_CORES) {
        out->quiet = BENCH_QUIET_NO;
        snprintf(out->why, sizeof(out->why),
            "other processes kept %.2f cores busy, %.0f%% of the machine",
            out->other_busy_cores, 100 * out->other_busy_share);
    } else if (out->steal_share >= BENCH_QUIET_STEAL_SHARE) {
        out->quiet = BENCH_QUIET_NO;
        snprintf(out->why, sizeof(out->why),
            "the hypervisor took %.1f%% of the cores' time for other guests",
            100 * out->steal_share);
    } else {
        out->quiet = BENCH_QUIET_YES;
    }
}

static void write_loadavg(FILE *out, const char *root, enum bench_env_key key)
{
    double load[3];
    if (bench_env_read_loadavg(root, load))
        bench_env_put(out, key, "%.2f %.2f %.2f", load[0], load[1], load[2]);
    else
        bench_env_put(out, key, "n/a");
}

static void write_cpu_mhz(FILE *out, const char *root, enum bench_env_key key)
{
    struct bench_cpu_freq f;
    if (bench_env_read_cpu_freq(root, &f))
        bench_env_put(out, key, "%.0f (min %.0f, max %.0f, %u cores, from %s)",
            f.mean_mhz, f.min_mhz, f.max_mhz, f.cores, f.source);
    else
        bench_env_put(out, key, "n/a");
}

void bench_env_write_before(FILE *out, const char *root)
{
    write_loadavg(out, root, BENCH_ENV_LOADAVG_BEFORE);
    write_cpu_mhz(out, root, BENCH_ENV_CPU_MHZ_BEFORE);
}

void bench_env_write_after(FILE *out, const char *root,
    const struct bench_cpu_times *before, const struct bench_cpu_times *after)
{
    write_loadavg(out, root, BENCH_ENV_LOADAVG_AFTER);
    write_cpu_mhz(out, root, BENCH_ENV_CPU_MHZ_AFTER);
    struct bench_noise n;
    bench_env_noise(before, after, &n);
    if (!isnan(n.other_busy_cores)) {
        bench_env_put(out, BENCH_ENV_OTHER_BUSY_CORES, "%.3f", n.other_busy_cores);
        bench_env_put(out, BENCH_ENV_OTHER_BUSY_SHARE, "%.4f", n.other_busy_share);
        bench_env_put(out, BENCH_ENV_STEAL_SHARE, "%.4f", n.steal_share);
    }
    if (!isnan(n.self_cores))
        bench_env_put(out, BENCH_ENV_SELF_CORES, "%.3f", n.self_cores);
    static const char *const verdict[] = { [BENCH_QUIET_UNKNOWN] = "unknown",
        [BENCH_QUIET_YES] = "yes",
        [BENCH_QUIET_NO] = "no" };
    bench_env_put(out, BENCH_ENV_QUIET, "%s%s%s%s", verdict[n.quiet],
        n.why[0] ? " (" : "", n.why, n.why[0] ? ")" : "");
}

const char *bench_env_isa_path(const struct solver *s)
{
    const char *fast = fast_isa_path(s);
    if (fast)
        return fast;
    const char *wide = wide_isa_path(s);
    if (wide)
        return wide;
    for (size_t i = 0; solver_registry[i]; i++) {
        if (solver_registry[i] == s)
            return "generic";
    }
    return "unknown";
}

void bench_env_write_isa_paths(FILE *out, const struct solver *const *solvers, size_t n)
{
    for (size_t i = 0; i < n; i++)
        bench_env_put(out, BENCH_ENV_ISA_PATH, "%s %s", solvers[i]->name,
            bench_env_isa_path(solvers[i]));
}
