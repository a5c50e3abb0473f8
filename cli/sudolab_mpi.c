/* sudolab-mpi: sudolab bench, count and generate over the ranks of an MPI job.
 *
 *   mpirun -np 64 sudolab-mpi bench --solvers mrv,dlx -j 4 --out DIR corpus.txt
 *   mpirun -np 64 sudolab-mpi count --empty 2x3 --solver mrv
 *   mpirun -np 64 sudolab-mpi generate --count 100000 --seed 7
 *
 * Every rank parses the command line with the command's own parser (rank 0
 * first: it alone says what is wrong with it), and runs the command with the
 * MPI runner installed (scaleout/mpi_runner.h): the work goes out to the ranks,
 * the results come back to rank 0 as data, and rank 0 prints them with the
 * command's own code, so the output is the plain command's. Every rank works
 * on -j threads, so threads and processes compose. The exit status is the
 * worst of any rank's. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cmd_bench.h"
#include "cli/cmd_generate.h"
#include "cli/cmd_solve.h"
#include "common/clock.h"
#include "common/io.h"
#include "common/text.h"
#include "scaleout/mpi_runner.h"

/* Rank 0's parse, for every rank (rank 0 alone says what is wrong, or
 * prints the help; the others parse only when it is to run). */
static enum cli_parsed agree_on_parse(enum cli_parsed rank0_parsed)
{
    int parsed = (int) rank0_parsed;
    MPI_Bcast(&parsed, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return (enum cli_parsed) parsed;
}

/* The exit status of a command line that is not to run; rank 0 prints the
 * command's help when that was asked for. */
static int parse_status(int rank, enum cli_parsed parsed, const struct cli_table *t)
{
    if (parsed == CLI_PARSED_HELP && rank == 0)
        cli_help(t, stdout);
    return cli_parsed_status(parsed);
}

/* Standard input reaches rank 0 only. */
static bool reads_stdin(int n, char **inputs, int nempty)
{
    for (int i = 0; i < n; i++) {
        if (strcmp(inputs[i], "-") == 0)
            return true;
    }
    return n == 0 && nempty == 0;
}

/* A seed from the clock, as the commands pick one when none is given. */
static uint64_t clock_seed(void)
{
    return clock_now_ns() ^ ((uint64_t) getpid() << 32);
}

/* One seed for every rank: rank 0's. */
static uint64_t shared_seed(uint64_t seed)
{
    MPI_Bcast(&seed, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    return seed;
}

/* What sudolab-mpi refuses in a command line every rank parsed alike. */
static int refuse(int rank, const char *why)
{
    if (rank == 0)
        fprintf(stderr, "sudolab-mpi: %s\n", why);
    return CLI_USAGE;
}

static int run_count(int rank, int argc, char **argv)
{
    struct solve_cli a;
    enum cli_parsed parsed
        = agree_on_parse(rank == 0 ? count_parse(argc, argv, &a) : CLI_PARSED_RUN);
    if (parsed == CLI_PARSED_RUN && rank != 0)
        parsed = count_parse(argc, argv, &a);
    if (parsed != CLI_PARSED_RUN)
        return parse_status(rank, parsed, &count_table);
    if (a.split.partial)
        return refuse(rank,
            "--shard: sudolab-mpi splits the run itself (use sudolab "
            "for static shards)");
    if (a.print_all)
        return refuse(rank, "count: --print does not combine with sudolab-mpi");
    if (reads_stdin(a.nfiles, a.files, a.common.nempty))
        return refuse(rank, "standard input reaches rank 0 only: give files");
    a.use_split = true; /* by subproblems: the shards are the ranks' work */
    return solve_run(&a);
}

static int run_generate(int rank, int argc, char **argv)
{
    struct generate_cli a;
    enum cli_parsed parsed
        = agree_on_parse(rank == 0 ? generate_parse(argc, argv, &a) : CLI_PARSED_RUN);
    if (parsed == CLI_PARSED_RUN && rank != 0)
        parsed = generate_parse(argc, argv, &a);
    if (parsed != CLI_PARSED_RUN)
        return parse_status(rank, parsed, &generate_table);
    if (a.shard)
        return refuse(rank,
            "--shard: sudolab-mpi splits the run itself (use sudolab "
            "for static shards)");
    /* one seed for every rank, as one run has one */
    a.opt.seed = shared_seed(a.seed_set ? a.opt.seed : clock_seed());
    a.seed_set = true;
    return generate_run(&a);
}

static int run_bench(int rank, int argc, char **argv)
{
    struct bench_cli a;
    memset(&a, 0, sizeof(a));
    enum cli_parsed parsed
        = agree_on_parse(rank == 0 ? bench_parse(argc, argv, &a) : CLI_PARSED_RUN);
    if (parsed == CLI_PARSED_RUN && rank != 0)
        parsed = bench_parse(argc, argv, &a);
    int rc = parsed == CLI_PARSED_RUN ? CLI_OK : parse_status(rank, parsed, &bench_table);
    if (parsed == CLI_PARSED_RUN && reads_stdin(a.nfiles, a.files, 1))
        rc = refuse(rank, "standard input reaches rank 0 only: give files");
    if (parsed == CLI_PARSED_RUN && rc == CLI_OK) {
        /* one seed for every rank (--permute solves the same isomorphs) */
        a.opt.seed = shared_seed(a.seed_set ? a.opt.seed : clock_seed());
        a.seed_set = true;
        if (rank != 0) {
            /* rank 0 writes the outputs and speaks */
            a.out_dir = NULL;
            a.resume = a.common.csv = false;
            a.quiet = true;
            a.opt.progress = false;
        }
        rc = bench_run(&a);
    }
    bench_cli_free(&a);
    return rc;
}

static void usage(FILE *out)
{
    fputs("usage: mpirun [-np P] sudolab-mpi [--chunks M] COMMAND [options] FILE...\n"
          "Runs sudolab bench, count or generate over the ranks of an MPI job: rank 0\n"
          "hands out work as it is asked for and writes what the command writes.\n"
          "Options and inputs are the command's (see `sudolab COMMAND --help`); input\n"
          "files must be readable by every rank. -j N runs N threads in each rank.\n"
          "  --chunks M   count and generate: split the run into M shards (default 16\n"
          "               per rank)\n",
        out);
}

/* sudolab-mpi's own option. Returns 0, or -1 after saying why. */
static int parse_chunks(int rank, int *first, int argc, char **argv, uint32_t *chunks)
{
    if (*first + 1 >= argc || strcmp(argv[*first], "--chunks") != 0)
        return 0;
    uint64_t v;
    if (text_parse_u64(argv[*first + 1], &v) != 0 || v < 1 || v > 1000000) {
        if (rank == 0)
            fprintf(stderr, "sudolab-mpi: --chunks %s: a number from 1 expected\n",
                argv[*first + 1]);
        return -1;
    }
    *chunks = (uint32_t) v;
    *first += 2;
    return 0;
}

static int run_command(int rank, int argc, char **argv)
{
    if (argc < 1) {
        if (rank == 0)
            usage(stderr);
        return CLI_USAGE;
    }
    if (strcmp(argv[0], "--help") == 0) {
        if (rank == 0)
            usage(stdout);
        return CLI_OK;
    }
    if (strcmp(argv[0], "bench") == 0)
        return run_bench(rank, argc, argv);
    if (strcmp(argv[0], "count") == 0)
        return run_count(rank, argc, argv);
    if (strcmp(argv[0], "generate") == 0)
        return run_generate(rank, argc, argv);
    if (rank == 0)
        fprintf(
            stderr, "sudolab-mpi: '%s': bench, count or generate expected\n", argv[0]);
    return CLI_USAGE;
}

int main(int argc, char **argv)
{
    int provided = 0;
    if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
        fprintf(stderr, "sudolab-mpi: MPI_Init_thread failed\n");
        return CLI_SKIPPED;
    }
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    uint32_t chunks = 0;
    int first = 1, rc = CLI_USAGE;
    struct mpi_runner runner;
    if (parse_chunks(rank, &first, argc, argv, &chunks) != 0) {
        rc = CLI_USAGE;
    } else if (provided < MPI_THREAD_FUNNELED) {
        if (rank == 0)
            fprintf(stderr, "sudolab-mpi: the MPI library does not allow threads\n");
        rc = CLI_SKIPPED;
    } else if (mpi_runner_init(&runner, chunks) != 0) {
        fprintf(stderr, "sudolab-mpi: rank %d: out of memory\n", rank);
        MPI_Abort(MPI_COMM_WORLD, CLI_SKIPPED);
    } else {
        rc = run_command(rank, argc - first, argv + first);
        io_flush_stdout();
        mpi_runner_finish(&runner);
    }
    int worst = rc;
    MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    io_flush_stdout();
    MPI_Finalize();
    /* rank 0 prints the output: lost lines make the run fail, as in sudolab */
    if (rank == 0 && io_close_stdout("sudolab-mpi", NULL) != 0 && worst == CLI_OK)
        worst = CLI_SKIPPED;
    return worst;
}
