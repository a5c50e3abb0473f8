#include "solvers/registry.h"

#include <string.h>

#include "solvers/outside.h"

#define SOLVER_ENTRY(name) &solver_##name,
const struct solver *const solver_registry[] = { SOLVER_REGISTRY(SOLVER_ENTRY) NULL };
#undef SOLVER_ENTRY

/* Preferred defaults, fastest first; the first one registered wins. */
static const char *const default_order[] = { "mrv", "dlx", "naive" };

size_t solver_count(void)
{
    size_t n = 0;
    while (solver_registry[n])
        n++;
    return n;
}

const struct solver *solver_find(const char *name)
{
    if (outside_is_spec(name))
        return outside_find(name); /* so:, cmd:, LABEL=: not in this table */
    for (size_t i = 0; solver_registry[i]; i++) {
        if (strcmp(solver_registry[i]->name, name) == 0)
            return solver_registry[i];
    }
    return NULL;
}

const struct solver *solver_default(void)
{
    for (size_t i = 0; i < sizeof(default_order) / sizeof(default_order[0]); i++) {
        const struct solver *s = solver_find(default_order[i]);
        if (s)
            return s;
    }
    return solver_registry[0];
}

int solver_name_matches(const char *pattern, const char *name)
{
    if (*pattern == '\0')
        return *name == '\0';
    if (*pattern == '*')
        return solver_name_matches(pattern + 1, name)
            || (*name && solver_name_matches(pattern, name + 1));
    if (*name && (*pattern == '?' || *pattern == *name))
        return solver_name_matches(pattern + 1, name + 1);
    return 0;
}
