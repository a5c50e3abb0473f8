#include "solvers/simd_path.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define SIMD_X86 1
#else
#define SIMD_X86 0
#endif

const char *const simd_path_names[SIMD_PATH_COUNT] = { "portable", "avx2", "avx512" };
const char *const simd_path_needs[SIMD_PATH_COUNT]
    = { "nothing", "AVX2/BMI2", "AVX-512F/VL/BW/DQ" };

enum simd_path simd_cpu_path(void)
{
#if SIMD_X86
    __builtin_cpu_init();
    const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi")
        && __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
    const bool avx512 = avx2 && __builtin_cpu_supports("avx512f")
        && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw")
        && __builtin_cpu_supports("avx512dq");
    return avx512 ? SIMD_AVX512 : avx2 ? SIMD_AVX2 : SIMD_PORTABLE;
#else
    return SIMD_PORTABLE;
#endif
}

bool simd_path_runs(int path, int allowed, bool lowered, char *why, size_t whylen)
{
    if (path <= allowed)
        return true;
    if (!SIMD_X86)
        snprintf(
            why, whylen, "the %s path is built for x86-64 only", simd_path_names[path]);
    else if (lowered)
        snprintf(why, whylen, "SUDOLAB_MAX_SIMD=%s rules out %s",
            getenv("SUDOLAB_MAX_SIMD"), simd_path_needs[path]);
    else
        snprintf(why, whylen, "this CPU lacks %s", simd_path_needs[path]);
    return false;
}

int simd_allowed_path(bool *lowered, char *why, size_t whylen)
{
    const enum simd_path cpu = simd_cpu_path();
    *lowered = false;
    if (cpu == SIMD_PORTABLE) /* nothing to lower (and WebAssembly has no environment) */
        return (int) cpu;
    const char *cap = getenv("SUDOLAB_MAX_SIMD");
    if (!cap || !*cap)
        return (int) cpu;
    for (int path = 0; path < SIMD_PATH_COUNT; path++) {
        if (strcmp(cap, simd_path_names[path]) == 0) {
            *lowered = path < (int) cpu;
            return *lowered ? path : (int) cpu;
        }
    }
    snprintf(why, whylen,
        "SUDOLAB_MAX_SIMD=%s names no SIMD path (portable, avx2 or avx512)", cap);
    return -1;
}
