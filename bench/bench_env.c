#include "bench/bench_env.h"

#include <sched.h>
#include <stdbool.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "bench/bench_rev.h"
#include "config.h"

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
