#include "common/perm.h"

#include <string.h>

bool perm_next(uint8_t *p, int n)
{
    /* the longest descending tail cannot grow; the entry before it goes up
     * to the smallest larger one in the tail, and the tail turns ascending */
    int i = n - 2;
    while (i >= 0 && p[i] > p[i + 1])
        i--;
    if (i < 0)
        return false;
    int j = n - 1;
    while (p[j] < p[i])
        j--;
    uint8_t t = p[i];
    p[i] = p[j];
    p[j] = t;
    for (int a = i + 1, b = n - 1; a < b; a++, b--) {
        t = p[a];
        p[a] = p[b];
        p[b] = t;
    }
    return true;
}

int perm_all(int n, uint8_t *out, int stride)
{
    uint8_t p[UINT8_MAX + 1];
    for (int i = 0; i < n; i++)
        p[i] = (uint8_t) i;
    int count = 0;
    do {
        uint8_t *row = out + (size_t) count++ * (size_t) stride;
        memset(row, 0, (size_t) stride);
        memcpy(row, p, (size_t) n);
    } while (perm_next(p, n));
    return count;
}
