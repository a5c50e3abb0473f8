#include "common/text.h"

#include <stdbool.h>
#include <stdio.h>

int text_parse_u64(const char *text, uint64_t *out)
{
    uint64_t v = 0;
    bool digit = false;
    for (const char *p = text; *p; p++) {
        if (*p == '_' || *p == ',')
            continue;
        if (*p < '0' || *p > '9')
            return -1;
        const uint64_t d = (uint64_t) (*p - '0');
        if (v > (UINT64_MAX - d) / 10)
            return -1;
        v = v * 10 + d;
        digit = true;
    }
    if (!digit)
        return -1;
    *out = v;
    return 0;
}

void text_format_ns(char *out, size_t len, uint64_t ns)
{
    if (ns < 10000)
        snprintf(out, len, "%.2fus", (double) ns / 1e3);
    else if (ns < 10000000)
        snprintf(out, len, "%.3fms", (double) ns / 1e6);
    else
        snprintf(out, len, "%.3fs", (double) ns / 1e9);
}
