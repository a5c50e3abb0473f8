/* Command-line options, declared once per command in a table (in the manner
 * of kissat's options.h): each entry names an option, its argument, its help
 * text, how its value is checked and the field it sets. The getopt_long
 * array, the --help text and the checks all come from that one table, so
 * they cannot drift apart.
 *
 * The options every puzzle-reading command shares (--solver, --limit, ...)
 * are declared once below as CLI_OPTION_<NAME>(help) and together as
 * CLI_COMMON_OPTIONS; they set struct cli_common. A command that words one
 * differently in its help passes its own text (NULL leaves it out of --help
 * while still accepting it). */
#ifndef SUDOLAB_CLI_OPTIONS_H
#define SUDOLAB_CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/cli.h"

/* How an entry's argument becomes its field's value. */
enum cli_kind {
    CLI_LINE, /* no option: `help` is a line (or lines) of the help text */
    CLI_HELP, /* --help: parsing stops and the command prints its help */
    CLI_FLAG, /* takes no argument: sets a bool */
    CLI_STRING, /* the argument itself: const char * */
    CLI_U64, /* a number (text_parse_u64) within [min, max]: uint64_t */
    CLI_UNSIGNED, /* ... unsigned */
    CLI_U32, /* ... uint32_t */
    CLI_INT, /* ... int */
    CLI_ULONG, /* ... unsigned long */
    CLI_SIZE, /* ... size_t */
    CLI_DOUBLE, /* ... a whole number stored as a double */
    CLI_CUSTOM, /* `parse` reads it (with or without an argument) */
};

/* The struct an entry's field is in: the command's own options, or the
 * struct cli_common that the shared options set. */
enum cli_where {
    CLI_IN_COMMAND,
    CLI_IN_COMMON,
};

/* What a custom parser returns. */
enum {
    CLI_VALUE_OK = 0,
    CLI_VALUE_BAD = -1, /* the caller says "--name ARG: <expected> expected" */
    CLI_VALUE_SAID = -2, /* refused; the parser has said why on stderr */
};

struct cli_option;

/* One option as met on the command line, handed to a custom parser. */
struct cli_value {
    const struct cli_option *option;
    const char *arg; /* NULL for an option that takes none */
    void *field; /* the entry's field in its struct */
    const char *who; /* "sudolab" or "sudolab <command>": begins any message */
};

typedef int cli_parse_fn(const struct cli_value *v);

/* One entry of a table. Fields not given are zero, which means "none". */
struct cli_option {
    enum cli_kind kind;
    const char *name; /* the long option, without "--" */
    const char *alias; /* another long name for it, left out of --help */
    char letter; /* the short option (-j); 0 for none */
    const char *metavar; /* the argument in --help; NULL: it takes none */
    const char *help; /* '\n' separates lines; NULL: left out of --help */
    enum cli_where where;
    size_t field; /* offsetof the field in its struct (CLI_WHOLE: the struct) */
    size_t given; /* CLI_GIVEN(type, member): a bool set when the option is met */
    uint64_t min, max; /* numbers: the accepted range; max 0 = the field's own */
    const char *expected; /* what a bad value's message says was expected */
    cli_parse_fn *parse; /* CLI_CUSTOM */
    bool say_letter; /* messages name the option by its letter (-j) */
};

/* A command's whole table; `who` begins its messages ("sudolab bench"). */
struct cli_table {
    const char *who;
    const struct cli_option *options;
    size_t count;
};

#define CLI_TABLE(who, options)                                                          \
    {                                                                                    \
        (who), (options), sizeof(options) / sizeof((options)[0])                         \
    }
#define CLI_WHOLE 0 /* field: the custom parser gets the whole struct */
#define CLI_GIVEN(type, member) (offsetof(type, member) + 1)

/* Longest table getopt_long is built for (a test checks every table fits). */
enum { CLI_MAX_OPTIONS = 48 };

enum cli_parsed {
    CLI_PARSED_ERROR = -1, /* a bad or unknown option; the message is out */
    CLI_PARSED_RUN = 0,
    CLI_PARSED_HELP = 1, /* --help was given: print cli_help and stop */
};

/* Parses argv[1..] (argv[0] is the command's name) against the table:
 * checks each value and sets its field, in `command` or `common` (which may
 * be NULL when the table has no shared options). After CLI_PARSED_RUN,
 * *operands is the index in argv of the first operand (file, puzzle). */
enum cli_parsed cli_parse(const struct cli_table *t, int argc, char **argv, void *command,
    struct cli_common *common, int *operands);

/* Writes the table's help text: its lines, and each documented option as
 * "  --name ARG" in a 20-column field followed by its help. */
void cli_help(const struct cli_table *t, FILE *out);

/* The exit status of a command that stops after parsing: 0 after --help, 2
 * after a bad option. */
int cli_parsed_status(enum cli_parsed p);

/* For custom parsers: reads v->arg as a number within the option's range.
 * Returns CLI_VALUE_OK or CLI_VALUE_BAD. */
int cli_read_number(const struct cli_value *v, uint64_t *out);
/* "standard", "diagonal" or "x" (diagonal). Returns 0, or -1 for anything
 * else. */
int cli_read_variant(const char *text, int *variant);

/* Shared custom parsers: a back end by name into `const struct solver *`
 * (prints why when there is none), --shard K/N into struct shard, and
 * rating methods ("blanks,guesses", "all") into RATE_ bits (unsigned). */
cli_parse_fn cli_parse_solver;
cli_parse_fn cli_parse_shard;
cli_parse_fn cli_parse_rate_methods;

/* The shared options' parsers (field: see the macros below). */
cli_parse_fn cli_parse_shape;
cli_parse_fn cli_parse_common_variant;
cli_parse_fn cli_parse_format;
cli_parse_fn cli_parse_empty;

#define CLI_COMMON_FIELD(member) offsetof(struct cli_common, member)
#define CLI_EXPECT_BOX "box rows x box columns, such as 3x3 or 2x3,"

#define CLI_OPTION_SOLVER(text)                                                          \
    {                                                                                    \
        .kind = CLI_CUSTOM, .name = "solver", .metavar = "NAME", .help = (text),         \
        .where = CLI_IN_COMMON, .field = CLI_COMMON_FIELD(solver),                       \
        .parse = cli_parse_solver                                                        \
    }
#define CLI_OPTION_LIMIT(text)                                                           \
    {                                                                                    \
        .kind = CLI_U64, .name = "limit", .metavar = "K", .help = (text),                \
        .where = CLI_IN_COMMON, .field = CLI_COMMON_FIELD(limit),                        \
        .given = CLI_GIVEN(struct cli_common, limit_set),                                \
        .expected = "a count (0 = all)"                                                  \
    }
#define CLI_OPTION_BUDGET_STEPS(text)                                                    \
    {                                                                                    \
        .kind = CLI_U64, .name = "budget-steps", .metavar = "N", .help = (text),         \
        .where = CLI_IN_COMMON, .field = CLI_COMMON_FIELD(budget_steps),                 \
        .expected = "a step count"                                                       \
    }
#define CLI_OPTION_BUDGET_MS(text)                                                       \
    {                                                                                    \
        .kind = CLI_U64, .name = "budget-ms", .metavar = "N", .help = (text),            \
        .where = CLI_IN_COMMON, .field = CLI_COMMON_FIELD(budget_ms),                    \
        .expected = "milliseconds"                                                       \
    }
#define CLI_OPTION_SEED(text)                                                            \
    {                                                                                    \
        .kind = CLI_U64, .name = "seed", .metavar = "S", .help = (text),                 \
        .where = CLI_IN_COMMON, .field = CLI_COMMON_FIELD(seed), .expected = "a number"  \
    }
#define CLI_OPTION_SIZE(text)                                                            \
    {                                                                                    \
        .kind = CLI_CUSTOM, .name = "size", .metavar = "RxC", .help = (text),            \
        .where = CLI_IN_COMMON, .field = CLI_COMMON_FIELD(corpus.shape),                 \
        .parse = cli_parse_shape, .expected = CLI_EXPECT_BOX                             \
    }
#define CLI_OPTION_VARIANT(text)                                                         \
    {                                                                                    \
        .kind = CLI_CUSTOM, .name = "variant", .metavar = "V", .help = (text),           \
        .where = CLI_IN_COMMON, .field = CLI_WHOLE, .parse = cli_parse_common_variant,   \
        .expected = "standard or diagonal"                                               \
    }
#define CLI_OPTION_FORMAT(text)                                                          \
    {                                                                                    \
        .kind = CLI_CUSTOM, .name = "format", .metavar = "F", .help = (text),            \
        .where = CLI_IN_COMMON, .field = CLI_COMMON_FIELD(corpus.format),                \
        .parse = cli_parse_format, .expected = "auto, lines, grids, lewis or sukaku"     \
    }
#define CLI_OPTION_EMPTY(text)                                                           \
    {                                                                                    \
        .kind = CLI_CUSTOM, .name = "empty", .metavar = "RxC", .help = (text),           \
        .where = CLI_IN_COMMON, .field = CLI_WHOLE, .parse = cli_parse_empty,            \
        .expected = "box rows x box columns, such as 2x2,"                               \
    }
#define CLI_OPTION_PRETTY(text)                                                          \
    {                                                                                    \
        .kind = CLI_FLAG, .name = "pretty", .help = (text), .where = CLI_IN_COMMON,      \
        .field = CLI_COMMON_FIELD(pretty)                                                \
    }
#define CLI_OPTION_CSV(text)                                                             \
    {                                                                                    \
        .kind = CLI_FLAG, .name = "csv", .help = (text), .where = CLI_IN_COMMON,         \
        .field = CLI_COMMON_FIELD(csv)                                                   \
    }
#define CLI_OPTION_HELP                                                                  \
    {                                                                                    \
        .kind = CLI_HELP, .name = "help"                                                 \
    }
#define CLI_LINE(text)                                                                   \
    {                                                                                    \
        .kind = CLI_LINE, .help = (text)                                                 \
    }

/* The shared options with the help solve, count, rate and trace give them. */
/* CLI_COMMON_OPTIONS with --budget-ms worded by the command (rate's SE
 * budget is CPU time). */
#define CLI_COMMON_OPTIONS_BUDGET(budget_ms_help)                                        \
    CLI_OPTION_SOLVER("back end (see `sudolab list`)"),                                  \
        CLI_OPTION_LIMIT("stop after K solutions: 1 first, 2 uniqueness, 0 all"),        \
        CLI_OPTION_BUDGET_STEPS("give up (status limit) after N steps of the back end"), \
        CLI_OPTION_BUDGET_MS(budget_ms_help),                                            \
        CLI_OPTION_SIZE("box shape (2x3 = 6x6); default: from each puzzle's length"),    \
        CLI_OPTION_VARIANT("standard or diagonal; default: what a file's header\n"       \
                           "comment says (variant=diagonal), else standard"),            \
        CLI_OPTION_FORMAT(                                                               \
            "auto, lines, grids (whitespace grids, seed 002) or\n"                       \
            "lewis (Rhydian Lewis's instance files), sukaku (candidates)"),              \
        CLI_OPTION_EMPTY("add the empty grid with RxC boxes as an input"),               \
        CLI_OPTION_PRETTY("draw grids with boxes"),                                      \
        CLI_OPTION_CSV("comma-separated output with a header")

#define CLI_COMMON_OPTIONS                                                               \
    CLI_COMMON_OPTIONS_BUDGET("give up (status limit) after N ms per puzzle (default\n"  \
                              "60000, so that nothing runs unbounded; 0 = none)")

#endif /* SUDOLAB_CLI_OPTIONS_H */
