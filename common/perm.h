/* Permutations of small index sets in lexicographic order, for the code that
 * walks a symmetry group element by element (the grid counts' stack, column
 * and line groups). */
#ifndef SUDOLAB_COMMON_PERM_H
#define SUDOLAB_COMMON_PERM_H

#include <stdbool.h>
#include <stdint.h>

/* Steps p[0..n) to the next permutation in lexicographic order and returns
 * true, or returns false (p unchanged) when p is the last one, descending.
 * Starting from 0, 1, ..., n-1 it visits all n! permutations. */
bool perm_next(uint8_t *p, int n);

/* Writes all n! permutations of 0..n-1 in lexicographic order into out, one
 * row of `stride` bytes each (entries past n are 0), and returns n!. */
int perm_all(int n, uint8_t *out, int stride);

#endif /* SUDOLAB_COMMON_PERM_H */
