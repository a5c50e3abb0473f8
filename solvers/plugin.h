/* Between solvers/outside.c (names, descriptors) and the two kinds of outside
 * back end: plugin_so.c (shared libraries) and plugin_cmd.c (processes). Not
 * for use elsewhere: the rest of sudolab sees a struct solver (outside.h). */
#ifndef SUDOLAB_SOLVERS_PLUGIN_H
#define SUDOLAB_SOLVERS_PLUGIN_H

#include <stdint.h>

#include "solvers/solver.h"

enum {
    OUTSIDE_TEXT_MAX = 1024, /* a spec, a path or a command */
    OUTSIDE_NAME_MAX = 64, /* fits runs.csv's solver column */
};

enum outside_kind {
    OUTSIDE_SO, /* so:PATH[:SYMBOL]: tdoku's ABI or a native plug-in */
    OUTSIDE_CMD, /* cmd:COMMAND: a process */
};

/* One outside back end as resolved. Filled by outside.c (spec, kind, target,
 * symbol, name) and then by the kind's describe function (the rest); read-only
 * once outside_find() has returned it. */
struct outside_backend {
    struct solver solver; /* its variant is this descriptor's number */
    enum outside_kind kind;
    char spec[OUTSIDE_TEXT_MAX]; /* as given, the label included */
    char target[OUTSIDE_TEXT_MAX]; /* the library's path (~/ expanded) or the command */
    char symbol[256]; /* so:PATH:SYMBOL's symbol, "" when none */
    char name[OUTSIDE_NAME_MAX];
    char family[32];
    char summary[512];
    char problem[320]; /* why it cannot run; "" when it can */
    char note[512]; /* printed beside its results; "" when nothing */
    /* so: what the library turned out to be */
    int native; /* 1: it exports sudolab_plugin; 0: a tdoku-ABI function */
    /* cmd: the median round trip of a ping, measured when first started */
    uint64_t round_trip_ns;
};

/* The descriptor numbered index (struct solver.variant), for an init(). */
const struct outside_backend *outside_backend_at(int index);

/* Each kind fills in the struct solver of ob (functions, sizes, capabilities,
 * counters, family, summary), or ob->problem: plugin_so.c loads the library
 * once to read what it is, plugin_cmd.c starts the process once for its hello
 * and to time the protocol. */
void plugin_so_describe(struct outside_backend *ob);
void plugin_cmd_describe(struct outside_backend *ob);

/* For a descriptor whose back end cannot run: every puzzle reaches solve(),
 * which says why (an `error` row). */
void outside_describe_unusable(struct outside_backend *ob);

#endif /* SUDOLAB_SOLVERS_PLUGIN_H */
