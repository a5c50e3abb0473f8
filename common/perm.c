#include "common/perm.h"

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
