/* The SIMD paths of the back ends that have several (fast, wide): which one
 * this CPU runs, and which one the environment allows. One place, so that
 * both back ends agree on what a machine can do. */
#ifndef SUDOLAB_SOLVERS_SIMD_PATH_H
#define SUDOLAB_SOLVERS_SIMD_PATH_H

#include <stdbool.h>
#include <stddef.h>

/* Narrowest first: a path runs on every CPU that runs a wider one. */
enum simd_path { SIMD_PORTABLE, SIMD_AVX2, SIMD_AVX512, SIMD_PATH_COUNT };

/* "portable", "avx2", "avx512": the names SUDOLAB_MAX_SIMD and env.txt use. */
extern const char *const simd_path_names[SIMD_PATH_COUNT];
/* What each path needs of the CPU, for messages. */
extern const char *const simd_path_needs[SIMD_PATH_COUNT];

/* The widest path this CPU runs (always SIMD_PORTABLE off x86-64). */
enum simd_path simd_cpu_path(void);

/* The widest path allowed here: the CPU's, lowered (never raised) by the
 * environment variable SUDOLAB_MAX_SIMD so that a narrower machine, and its
 * forced paths being unavailable, can be tried on a wider one. *lowered says
 * whether it was. -1, with why, for a value that names no path. */
int simd_allowed_path(bool *lowered, char *why, size_t whylen);

/* Whether path runs here, given what simd_allowed_path returned (allowed >=
 * 0, and lowered); when it does not, why: not built for this machine, ruled
 * out by SUDOLAB_MAX_SIMD, or missing from the CPU. */
bool simd_path_runs(int path, int allowed, bool lowered, char *why, size_t whylen);

#endif /* SUDOLAB_SOLVERS_SIMD_PATH_H */
