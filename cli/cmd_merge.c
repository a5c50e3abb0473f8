/* sudolab merge: shard outputs in, the single run's output out (bench/merge.h
 * says what is checked). The kind of shard is told by the inputs themselves. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "dist/merge.h"

static const char usage_text[]
    = "usage: sudolab merge [options] SHARD...\n"
      "Combines the outputs of --shard K/N runs into the output of one run, after\n"
      "checking they come from the same options, revision and inputs, and that shards\n"
      "1..N are each there once and complete.\n"
      "  count partials (count --shard K/N > FILE): count's rows on stdout\n"
      "  generate outputs (generate --shard K/N > FILE): the puzzles in order\n"
      "  bench directories (bench --shard K/N --out DIR): runs.csv, summary.csv and\n"
      "  env.txt written into --out DIR\n"
      "  --out PATH          the merged bench directory (required for bench), or a file\n"
      "                      for count and generate (default: stdout)\n"
      "  --csv               count: CSV rows, as count --csv prints them\n"
      "  --quiet             bench: no summary table\n";

static const char *const kind_names[]
    = { "unknown", "count partial", "generate output", "bench directory" };

int cmd_merge(int argc, char **argv)
{
    enum { OPT_OUT = 1, OPT_CSV, OPT_QUIET, OPT_HELP };
    static const struct option longopts[] = {
        { "out", required_argument, NULL, OPT_OUT },
        { "csv", no_argument, NULL, OPT_CSV },
        { "quiet", no_argument, NULL, OPT_QUIET },
        { "help", no_argument, NULL, OPT_HELP },
        { NULL, 0, NULL, 0 },
    };
    const char *out = NULL;
    bool csv = false, quiet = false;
    int opt;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        switch (opt) {
        case OPT_OUT:
            out = optarg;
            break;
        case OPT_CSV:
            csv = true;
            break;
        case OPT_QUIET:
            quiet = true;
            break;
        case OPT_HELP:
            fputs(usage_text, stdout);
            return CLI_OK;
        default:
            fprintf(stderr, "sudolab merge: unknown option (see --help)\n");
            return CLI_USAGE;
        }
    }
    const int n = argc - optind;
    char **paths = argv + optind;
    if (n < 1) {
        fprintf(stderr, "sudolab merge: no shards to merge (see --help)\n");
        return CLI_USAGE;
    }
    const enum merge_kind kind = merge_detect(paths[0]);
    for (int i = 0; i < n; i++) {
        const enum merge_kind k = merge_detect(paths[i]);
        struct stat sb;
        if (k == MERGE_UNKNOWN && stat(paths[i], &sb) != 0) {
            fprintf(stderr, "sudolab merge: %s: %s (a shard that did not finish?)\n",
                paths[i], strerror(errno));
            return CLI_USAGE;
        }
        if (k == MERGE_UNKNOWN) {
            fprintf(stderr,
                "sudolab merge: %s: not a shard output (unreadable, or not from "
                "count, generate or bench)\n",
                paths[i]);
            return CLI_USAGE;
        }
        if (k != kind) {
            fprintf(stderr, "sudolab merge: %s is a %s but %s is a %s\n", paths[0],
                kind_names[kind], paths[i], kind_names[k]);
            return CLI_USAGE;
        }
    }
    if (kind == MERGE_BENCH) {
        if (!out) {
            fprintf(stderr, "sudolab merge: bench shards need --out DIR\n");
            return CLI_USAGE;
        }
        return merge_bench(
            (const char *const *) paths, (size_t) n, out, quiet ? NULL : stdout);
    }

    FILE **files = calloc((size_t) n, sizeof(*files));
    if (!files) {
        fprintf(stderr, "sudolab merge: out of memory\n");
        return CLI_SKIPPED;
    }
    int rc = CLI_OK;
    for (int i = 0; i < n && rc == CLI_OK; i++) {
        files[i] = fopen(paths[i], "r");
        if (!files[i]) {
            fprintf(stderr, "sudolab merge: %s: %s\n", paths[i], strerror(errno));
            rc = CLI_SKIPPED;
        }
    }
    if (rc == CLI_OK && out && !freopen(out, "w", stdout)) {
        fprintf(stderr, "sudolab merge: %s: %s\n", out, strerror(errno));
        rc = CLI_SKIPPED;
    }
    if (rc == CLI_OK) {
        if (kind == MERGE_COUNT)
            rc = merge_count(files, (const char *const *) paths, (size_t) n, csv);
        else
            rc = merge_generate(files, (const char *const *) paths, (size_t) n, stdout);
    }
    for (int i = 0; i < n; i++) {
        if (files[i])
            fclose(files[i]);
    }
    free(files);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "sudolab merge: writing the output failed\n");
        rc = CLI_SKIPPED;
    }
    return rc;
}
