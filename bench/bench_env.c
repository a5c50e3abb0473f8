#include "bench/bench_env.h"

#include <math.h>
#include <sched.h>
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
    fprintf(out, "date: %s\n", buf);
    if (gethostname(buf, sizeof(buf)) == 0) {
        buf[sizeof(buf) - 1] = '\0';
        fprintf(out, "host: %s\n", buf);
    }
    struct utsname u;
    if (uname(&u) == 0)
        fprintf(out, "kernel: %s %s %s\n", u.sysname, u.release, u.machine);
    if (read_keyed("/proc/cpuinfo", "model name", buf, sizeof(buf)))
        fprintf(out, "cpu: %s\n", buf);
    char flags[8192];
    if (read_keyed("/proc/cpuinfo", "flags", flags, sizeof(flags))) {
        /* the instruction sets the bitboard back ends choose between */
        static const char *const simd[]
            = { "sse4_2", "avx2", "bmi2", "avx512f", "avx512bw", "avx512vl" };
        char padded[8200]; /* spaces around every flag: whole words only */
        snprintf(padded, sizeof(padded), " %s ", flags);
        fputs("cpu_simd:", out);
        for (size_t i = 0; i < sizeof(simd) / sizeof(simd[0]); i++) {
            char word[32];
            snprintf(word, sizeof(word), " %s ", simd[i]);
            if (strstr(padded, word))
                fprintf(out, " %s", simd[i]);
        }
        fputc('\n', out);
    }
    fprintf(out, "cores_online: %ld\n", sysconf(_SC_NPROCESSORS_ONLN));
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof(set), &set) == 0)
        fprintf(out, "cores_usable: %d\n", CPU_COUNT(&set));
    if (read_first_line(
            "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", buf, sizeof(buf)))
        fprintf(out, "governor: %s\n", buf);
    else
        fprintf(out, "governor: n/a\n");
    fprintf(out, "sudolab: %s\n", SUDOLAB_VERSION);
    fprintf(out, "git_revision: %s\n", bench_env_revision());
    fprintf(out, "compiler: %s\n", SUDOLAB_COMPILER);
    fprintf(out, "buildtype: %s\n", SUDOLAB_BUILDTYPE);
#ifdef SUDOLAB_BUILD_OPTIONS
    fprintf(out, "build_options: %s\n", SUDOLAB_BUILD_OPTIONS);
#endif
    fprintf(out, "c_args: %s\n", SUDOLAB_CFLAGS[0] ? SUDOLAB_CFLAGS : "(none)");
    fprintf(out, "native: %s\n", SUDOLAB_NATIVE ? "yes (-march=native)" : "no");
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

static void write_loadavg(FILE *out, const char *root, const char *key)
{
    double load[3];
    if (bench_env_read_loadavg(root, load))
        fprintf(out, "%s: %.2f %.2f %.2f\n", key, load[0], load[1], load[2]);
    else
        fprintf(out, "%s: n/a\n", key);
}

static void write_cpu_mhz(FILE *out, const char *root, const char *key)
{
    struct bench_cpu_freq f;
    if (bench_env_read_cpu_freq(root, &f))
        fprintf(out, "%s: %.0f (min %.0f, max %.0f, %u cores, from %s)\n", key,
            f.mean_mhz, f.min_mhz, f.max_mhz, f.cores, f.source);
    else
        fprintf(out, "%s: n/a\n", key);
}

void bench_env_write_before(FILE *out, const char *root)
{
    write_loadavg(out, root, "loadavg_before");
    write_cpu_mhz(out, root, "cpu_mhz_before");
}

void bench_env_write_after(FILE *out, const char *root,
    const struct bench_cpu_times *before, const struct bench_cpu_times *after)
{
    write_loadavg(out, root, "loadavg_after");
    write_cpu_mhz(out, root, "cpu_mhz_after");
    struct bench_noise n;
    bench_env_noise(before, after, &n);
    if (!isnan(n.other_busy_cores)) {
        fprintf(out, "other_busy_cores: %.3f\n", n.other_busy_cores);
        fprintf(out, "other_busy_share: %.4f\n", n.other_busy_share);
        fprintf(out, "steal_share: %.4f\n", n.steal_share);
    }
    if (!isnan(n.self_cores))
        fprintf(out, "self_cores: %.3f\n", n.self_cores);
    static const char *const verdict[] = { [BENCH_QUIET_UNKNOWN] = "unknown",
        [BENCH_QUIET_YES] = "yes",
        [BENCH_QUIET_NO] = "no" };
    fprintf(out, "quiet: %s%s%s%s\n", verdict[n.quiet], n.why[0] ? " (" : "", n.why,
        n.why[0] ? ")" : "");
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
        fprintf(
            out, "isa_path: %s %s\n", solvers[i]->name, bench_env_isa_path(solvers[i]));
}
