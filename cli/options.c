#include "cli/options.h"

#include <getopt.h>
#include <limits.h>
#include <string.h>

#include "common/shard.h"
#include "common/text.h"
#include "puzzle/rate.h"
#include "solvers/registry.h"

/* getopt_long's value for an entry without a letter: past every char. */
enum { CLI_CODE_BASE = 256 };

static bool takes_option(const struct cli_option *o)
{
    return o->kind != CLI_LINE && o->name;
}

static bool takes_argument(const struct cli_option *o)
{
    return o->metavar != NULL;
}

/* Fills the getopt_long array and short option string from the table.
 * Returns -1 when the table has more options than CLI_MAX_OPTIONS. */
static int build_getopt(
    const struct cli_table *t, struct option *longopts, char *shortopts)
{
    size_t n = 0, s = 0;
    for (size_t i = 0; i < t->count; i++) {
        const struct cli_option *o = &t->options[i];
        if (!takes_option(o))
            continue;
        const struct option entry
            = { o->name, takes_argument(o) ? required_argument : no_argument, NULL,
                  o->letter ? o->letter : CLI_CODE_BASE + (int) i };
        if (n + (o->alias ? 2 : 1) > CLI_MAX_OPTIONS)
            return -1;
        longopts[n++] = entry;
        if (o->alias) {
            longopts[n] = entry;
            longopts[n++].name = o->alias;
        }
        if (o->letter) {
            shortopts[s++] = o->letter;
            if (takes_argument(o))
                shortopts[s++] = ':';
        }
    }
    longopts[n] = (struct option) { NULL, 0, NULL, 0 };
    shortopts[s] = '\0';
    return 0;
}

/* The entry getopt_long's code stands for, or NULL ('?': unknown). */
static const struct cli_option *find_option(const struct cli_table *t, int code)
{
    if (code >= CLI_CODE_BASE && (size_t) (code - CLI_CODE_BASE) < t->count)
        return &t->options[code - CLI_CODE_BASE];
    for (size_t i = 0; i < t->count; i++) {
        if (takes_option(&t->options[i]) && t->options[i].letter == code)
            return &t->options[i];
    }
    return NULL;
}

static uint64_t field_max(enum cli_kind kind)
{
    switch (kind) {
    case CLI_UNSIGNED:
        return UINT_MAX;
    case CLI_U32:
        return UINT32_MAX;
    case CLI_INT:
        return INT_MAX;
    case CLI_ULONG:
        return ULONG_MAX;
    case CLI_SIZE:
        return SIZE_MAX;
    default:
        return UINT64_MAX;
    }
}

int cli_read_number(const struct cli_value *v, uint64_t *out)
{
    const struct cli_option *o = v->option;
    const uint64_t max = o->max ? o->max : field_max(o->kind);
    if (text_parse_u64(v->arg, out) != 0 || *out < o->min || *out > max)
        return CLI_VALUE_BAD;
    return CLI_VALUE_OK;
}

static int store_number(const struct cli_value *v)
{
    uint64_t n;
    if (cli_read_number(v, &n) != CLI_VALUE_OK)
        return CLI_VALUE_BAD;
    switch (v->option->kind) {
    case CLI_U64:
        *(uint64_t *) v->field = n;
        break;
    case CLI_UNSIGNED:
        *(unsigned *) v->field = (unsigned) n;
        break;
    case CLI_U32:
        *(uint32_t *) v->field = (uint32_t) n;
        break;
    case CLI_INT:
        *(int *) v->field = (int) n;
        break;
    case CLI_ULONG:
        *(unsigned long *) v->field = (unsigned long) n;
        break;
    case CLI_SIZE:
        *(size_t *) v->field = (size_t) n;
        break;
    default:
        *(double *) v->field = (double) n;
        break;
    }
    return CLI_VALUE_OK;
}

static int store(const struct cli_value *v)
{
    switch (v->option->kind) {
    case CLI_FLAG:
        *(bool *) v->field = true;
        return CLI_VALUE_OK;
    case CLI_STRING:
        *(const char **) v->field = v->arg;
        return CLI_VALUE_OK;
    case CLI_CUSTOM:
        return v->option->parse(v);
    default:
        return store_number(v);
    }
}

/* Checks and stores one option's value. Returns 0, or -1 after saying why. */
static int apply(const struct cli_table *t, const struct cli_option *o, const char *arg,
    void *command, struct cli_common *common)
{
    char *base = o->where == CLI_IN_COMMON ? (char *) common : (char *) command;
    const struct cli_value v
        = { o, arg, base + o->field, o->where == CLI_IN_COMMON ? "sudolab" : t->who };
    const int rc = store(&v);
    if (rc == CLI_VALUE_BAD) {
        if (o->say_letter)
            fprintf(
                stderr, "%s: -%c %s: %s expected\n", v.who, o->letter, arg, o->expected);
        else
            fprintf(
                stderr, "%s: --%s %s: %s expected\n", v.who, o->name, arg, o->expected);
    }
    if (rc != CLI_VALUE_OK)
        return -1;
    if (o->given)
        *(bool *) (base + o->given - 1) = true;
    return 0;
}

enum cli_parsed cli_parse(const struct cli_table *t, int argc, char **argv, void *command,
    struct cli_common *common, int *operands)
{
    struct option longopts[CLI_MAX_OPTIONS + 1];
    char shortopts[2 * CLI_MAX_OPTIONS + 1];
    *operands = argc;
    if (build_getopt(t, longopts, shortopts) != 0) {
        fprintf(stderr, "%s: more than %d options\n", t->who, CLI_MAX_OPTIONS);
        return CLI_PARSED_ERROR;
    }
    int code;
    optind = 1;
    while ((code = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
        const struct cli_option *o = find_option(t, code);
        if (!o) {
            fprintf(stderr, "%s: unknown option (see --help)\n", t->who);
            return CLI_PARSED_ERROR;
        }
        if (o->kind == CLI_HELP)
            return CLI_PARSED_HELP;
        if (apply(t, o, optarg, command, common) != 0)
            return CLI_PARSED_ERROR;
    }
    *operands = optind;
    return CLI_PARSED_RUN;
}

/* Help text lines after the first start at this column. */
enum { CLI_HELP_COLUMN = 22 };

static void print_option_help(const struct cli_option *o, FILE *out)
{
    char label[64];
    int len = 0;
    if (o->letter)
        len = snprintf(label, sizeof(label), "-%c, ", o->letter);
    snprintf(label + len, sizeof(label) - (size_t) len, "--%s%s%s", o->name,
        o->metavar ? " " : "", o->metavar ? o->metavar : "");
    fprintf(out, "  %-*s ", CLI_HELP_COLUMN - 3, label);
    for (const char *p = o->help; *p; p++) {
        fputc(*p, out);
        if (*p == '\n')
            fprintf(out, "%*s", CLI_HELP_COLUMN, "");
    }
    fputc('\n', out);
}

void cli_help(const struct cli_table *t, FILE *out)
{
    for (size_t i = 0; i < t->count; i++) {
        const struct cli_option *o = &t->options[i];
        if (!o->help)
            continue;
        if (o->kind == CLI_LINE)
            fprintf(out, "%s\n", o->help);
        else
            print_option_help(o, out);
    }
}

int cli_parsed_status(enum cli_parsed p)
{
    return p == CLI_PARSED_HELP ? CLI_OK : CLI_USAGE;
}

int cli_read_variant(const char *text, int *variant)
{
    if (strcmp(text, "standard") == 0)
        *variant = GRID_STANDARD;
    else if (strcmp(text, "diagonal") == 0 || strcmp(text, "x") == 0)
        *variant = GRID_DIAGONAL;
    else
        return -1;
    return 0;
}

int cli_parse_solver(const struct cli_value *v)
{
    const struct solver *s = solver_find(v->arg);
    if (!s) {
        fprintf(
            stderr, "%s: no solver named '%s' (see `sudolab list`)\n", v->who, v->arg);
        return CLI_VALUE_SAID;
    }
    *(const struct solver **) v->field = s;
    return CLI_VALUE_OK;
}

int cli_parse_shard(const struct cli_value *v)
{
    return shard_parse(v->arg, v->field, v->who) == 0 ? CLI_VALUE_OK : CLI_VALUE_SAID;
}

int cli_parse_rate_methods(const struct cli_value *v)
{
    return rate_parse_methods(v->arg, v->field) == 0 ? CLI_VALUE_OK : CLI_VALUE_BAD;
}

int cli_parse_shape(const struct cli_value *v)
{
    struct grid_shape *shape = v->field;
    int br, bc;
    if (grid_parse_box(v->arg, &br, &bc) != 0)
        return CLI_VALUE_BAD;
    shape->box_rows = (uint8_t) br;
    shape->box_cols = (uint8_t) bc;
    return CLI_VALUE_OK;
}

int cli_parse_common_variant(const struct cli_value *v)
{
    struct cli_common *c = v->field;
    int variant;
    if (cli_read_variant(v->arg, &variant) != 0)
        return CLI_VALUE_BAD;
    c->corpus.shape.variant = (uint8_t) variant;
    c->corpus.variant_from_header = false; /* the user's word wins */
    for (int i = 0; i < c->nempty; i++)
        c->empty[i].variant = c->corpus.shape.variant;
    return CLI_VALUE_OK;
}

int cli_parse_format(const struct cli_value *v)
{
    enum corpus_format *format = v->field;
    if (strcmp(v->arg, "auto") == 0)
        *format = CORPUS_AUTO;
    else if (strcmp(v->arg, "lines") == 0)
        *format = CORPUS_LINES;
    else if (strcmp(v->arg, "grids") == 0)
        *format = CORPUS_GRIDS;
    else if (strcmp(v->arg, "lewis") == 0)
        *format = CORPUS_LEWIS;
    else if (strcmp(v->arg, "sukaku") == 0)
        *format = CORPUS_SUKAKU;
    else
        return CLI_VALUE_BAD;
    return CLI_VALUE_OK;
}

int cli_parse_empty(const struct cli_value *v)
{
    struct cli_common *c = v->field;
    int br, bc;
    if (grid_parse_box(v->arg, &br, &bc) != 0)
        return CLI_VALUE_BAD;
    if (c->nempty == (int) (sizeof(c->empty) / sizeof(c->empty[0]))) {
        fprintf(stderr, "%s: too many --empty grids\n", v->who);
        return CLI_VALUE_SAID;
    }
    grid_init(
        &c->empty[c->nempty++], br, bc, (enum grid_variant) c->corpus.shape.variant);
    return CLI_VALUE_OK;
}
