/* The corpus reader: every format, and every class of bad input goes on to
 * the next entry with the right line and reason. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/corpus.h"
#include "tests/test_util.h"

struct entry {
    enum corpus_status status;
    unsigned long line;
    int n;
    int variant;
    char text[640];
    char extra[CORPUS_EXTRA_MAX];
    char why[200];
};

/* Reads all entries of `text` into out; returns how many. */
static int read_all(const char *text, size_t len, const struct corpus_options *opts,
    struct entry *out, int max)
{
    FILE *f = fmemopen((void *) text, len, "rb");
    assert_non_null(f);
    struct corpus *c = corpus_open_stream(f, "mem", 1, opts);
    assert_non_null(c);
    static struct corpus_item item;
    int count = 0;
    enum corpus_status st;
    while ((st = corpus_next(c, &item)) != CORPUS_END && st != CORPUS_FAIL) {
        assert_true(count < max);
        out[count].status = st;
        out[count].line = item.line;
        out[count].n = st == CORPUS_PUZZLE ? item.puzzle.n : 0;
        out[count].variant = st == CORPUS_PUZZLE ? item.puzzle.variant : -1;
        if (st == CORPUS_PUZZLE)
            grid_format_line(&item.puzzle, out[count].text);
        snprintf(out[count].extra, sizeof(out[count].extra), "%s", item.extra);
        snprintf(out[count].why, sizeof(out[count].why), "%s", item.why);
        count++;
    }
    corpus_close(c);
    return count;
}

#define READ(text, opts, out) read_all(text, strlen(text), opts, out, 16)

static void lines_with_comments_crlf_and_fields(void **state)
{
    (void) state;
    char text[1024];
    snprintf(text, sizeof(text),
        "# a header\r\n"
        "\n"
        "%s\r\n"
        "   \t\n"
        "%s 1 solution\n"
        "%s,extra\n"
        "%s;x\n"
        "%s:2+\n"
        "1...2...3...4...\n",
        test_royle, test_royle, test_royle, test_royle, test_royle);
    struct entry e[16];
    const int n = READ(text, NULL, e);
    assert_int_equal(n, 6);
    for (int i = 0; i < 5; i++) {
        assert_int_equal(e[i].status, CORPUS_PUZZLE);
        assert_string_equal(e[i].text, test_royle);
    }
    assert_int_equal(e[0].line, 3);
    assert_int_equal(e[1].line, 5);
    assert_string_equal(e[1].extra, "1 solution");
    assert_string_equal(e[2].extra, "extra");
    assert_string_equal(e[4].extra, "2+");
    assert_int_equal(e[5].n, 4); /* mixed sizes in one file */
}

/* sudolab generate's header names the variant; only comments before the
 * first entry count, and only when the caller lets the header decide. */
static void header_comment_sets_the_variant(void **state)
{
    (void) state;
    const struct corpus_options from_header = { .variant_from_header = true };
    struct entry e[16];
    assert_int_equal(READ("# sudolab generate size=2x2 variant=diagonal seed=1\n"
                          "1...............\n"
                          "# variant=standard: too late, entries came first\n"
                          "..2.............\n",
                         &from_header, e),
        2);
    assert_int_equal(e[0].variant, GRID_DIAGONAL);
    assert_int_equal(e[1].variant, GRID_DIAGONAL);
    assert_int_equal(READ("#variant=diagonal\n1...............\n", &from_header, e), 1);
    assert_int_equal(e[0].variant, GRID_DIAGONAL);
    /* a word that only ends in variant=, and a value that only starts with diagonal */
    assert_int_equal(READ("# covariant=diagonal variant=diagonals\n1...............\n",
                         &from_header, e),
        1);
    assert_int_equal(e[0].variant, GRID_STANDARD);
    /* the caller's variant wins (sudolab --variant) */
    const struct corpus_options forced = { .shape = { 0, 0, GRID_STANDARD } };
    assert_int_equal(READ("# variant=diagonal\n1...............\n", &forced, e), 1);
    assert_int_equal(e[0].variant, GRID_STANDARD);
    /* while the header decides, it can also say standard */
    const struct corpus_options diagonal_default
        = { .shape = { 0, 0, GRID_DIAGONAL }, .variant_from_header = true };
    assert_int_equal(
        READ("# variant=standard\n1...............\n", &diagonal_default, e), 1);
    assert_int_equal(e[0].variant, GRID_STANDARD);
}

static void zeros_are_blanks(void **state)
{
    (void) state;
    struct entry e[16];
    assert_int_equal(READ("1000020000300004\n", NULL, e), 1);
    assert_string_equal(e[0].text, "1....2....3....4");
}

static void whitespace_grids_like_seed_002(void **state)
{
    (void) state;
    const char *text = "0 0 0 0 0 0 0 0 0\n"
                       "0 0 0 0 0 3 0 8 5\n"
                       "0 0 1 0 2 0 0 0 0\n"
                       "0 0 0 5 0 7 0 0 0\n"
                       "0 0 4 0 0 0 1 0 0\n"
                       "0 9 0 0 0 0 0 0 0\n"
                       "5 0 0 0 0 0 0 7 3\n"
                       "0 0 2 0 1 0 0 0 0\n"
                       "0 0 0 0 4 0 0 0 9\n"
                       "\n"
                       "1 0 0 0\n"
                       "0 2 0 0\n"
                       "0 0 3 0\n"
                       "0 0 0 4\n";
    struct entry e[16];
    assert_int_equal(READ(text, NULL, e), 2);
    assert_int_equal(e[0].status, CORPUS_PUZZLE);
    assert_string_equal(e[0].text,
        "........."
        ".....3.85"
        "..1.2...."
        "...5.7..."
        "..4...1.."
        ".9......."
        "5......73"
        "..2.1...."
        "....4...9");
    assert_int_equal(e[0].line, 1);
    assert_string_equal(e[1].text, "1....2....3....4");
    assert_int_equal(e[1].line, 11);
    /* 16x16 with two-digit values */
    char big[2048] = "";
    for (int r = 0; r < 16; r++) {
        for (int c = 0; c < 16; c++) {
            char v[8];
            snprintf(v, sizeof(v), "%s%d", c ? " " : "", r == c ? 16 : 0);
            strcat(big, v);
        }
        strcat(big, "\n");
    }
    assert_int_equal(READ(big, NULL, e), 1);
    assert_int_equal(e[0].n, 16);
    assert_int_equal(e[0].text[0], 'G');
}

static void grid_with_a_missing_row(void **state)
{
    (void) state;
    const char *text = "1 0 0 0\n"
                       "0 2 0 0\n"
                       "0 0 3 0\n"
                       "\n"
                       "1 0 0 0\n"
                       "0 2 0 0\n"
                       "0 0 3 0\n"
                       "0 0 0 4\n";
    struct entry e[16];
    assert_int_equal(READ(text, NULL, e), 2);
    assert_int_equal(e[0].status, CORPUS_BAD);
    assert_int_equal(e[0].line, 1);
    assert_string_equal(e[0].why, "grid has 3 rows, 4 expected");
    assert_int_equal(e[1].status, CORPUS_PUZZLE);
    assert_int_equal(e[1].line, 5);
}

static void grid_rows_of_wrong_width_or_value(void **state)
{
    (void) state;
    const char *text = "1 0 0 0\n"
                       "0 2 0\n"
                       "0 0 3 0\n"
                       "0 0 0 4\n"
                       "\n"
                       "1 0 0 0\n"
                       "0 7 0 0\n"
                       "0 0 3 0\n"
                       "0 0 0 4\n"
                       "\n"
                       "1 0 0 0\n"
                       "0 2 0 0\n"
                       "0 0 3 0\n"
                       "0 0 0 4\n";
    struct entry e[16];
    const int n = READ(text, NULL, e);
    assert_int_equal(e[0].status, CORPUS_BAD);
    assert_non_null(strstr(e[0].why, "line 2 has 3 values, 4 expected"));
    assert_int_equal(e[1].status, CORPUS_BAD);
    assert_non_null(strstr(e[1].why, "value 7"));
    assert_int_equal(e[n - 1].status, CORPUS_PUZZLE);
    assert_int_equal(e[n - 1].line, 11);
}

static void bad_lines_do_not_stop_the_reader(void **state)
{
    (void) state;
    char text[2048];
    snprintf(text, sizeof(text),
        "%.80s\n" /* one symbol short */
        "%sX\n" /* one too many: 82 symbols */
        "%.40sZ%s\n" /* a symbol that is no 9x9 value */
        "12345\n" /* no grid size */
        "%s\n",
        test_royle, test_royle, test_royle, test_royle + 41, test_royle);
    struct entry e[16];
    const int n = READ(text, NULL, e);
    assert_int_equal(n, 5);
    assert_int_equal(e[0].status, CORPUS_BAD);
    assert_string_equal(e[0].why,
        "80 symbols is no grid size (16, 36, 64, 81, 144, 256 or 625 expected)");
    assert_int_equal(e[1].status, CORPUS_BAD);
    assert_int_equal(e[2].status, CORPUS_BAD);
    assert_int_equal(e[2].line, 3);
    assert_non_null(strstr(e[2].why, "'Z' at column 41"));
    assert_int_equal(e[3].status, CORPUS_BAD);
    assert_int_equal(e[4].status, CORPUS_PUZZLE);
    assert_int_equal(e[4].line, 5);
}

/* Found by fuzz_corpus: a ';' between grid values once made the row
 * splitter loop for ever. */
static void odd_separators_in_grid_rows(void **state)
{
    (void) state;
    struct entry e[16];
    const int n
        = READ("1 0 0 0\n0; 0 .. 0\n0 0 3 0\n0 0 0 4\n\n1....2....3....4\n", NULL, e);
    assert_int_equal(e[0].status, CORPUS_BAD);
    assert_int_equal(e[n - 1].status, CORPUS_PUZZLE);
    assert_int_equal(e[n - 1].line, 6);
}

static void forced_size_and_format(void **state)
{
    (void) state;
    const struct corpus_options six = { .shape = { 3, 2, 0 } };
    struct entry e[16];
    assert_int_equal(READ("123456..................................\n"
                          "12..................................\n",
                         &six, e),
        2);
    assert_int_equal(e[0].status, CORPUS_BAD);
    assert_non_null(strstr(e[0].why, "36 symbols expected"));
    assert_int_equal(e[1].status, CORPUS_PUZZLE);
    assert_int_equal(e[1].n, 6);
    /* lines forced: a grid row is not a puzzle */
    const struct corpus_options lines = { .format = CORPUS_LINES };
    assert_int_equal(READ("1 0 0 0\n", &lines, e), 1);
    assert_int_equal(e[0].status, CORPUS_BAD);
}

static void empty_and_comment_only_inputs(void **state)
{
    (void) state;
    struct entry e[16];
    assert_int_equal(read_all("", 0, NULL, e, 16), 0);
    assert_int_equal(READ("# nothing\n\n# here\n", NULL, e), 0);
}

static void binary_data(void **state)
{
    (void) state;
    char text[200];
    memset(text, 0, sizeof(text));
    memcpy(text + 100, "\n\xff\xfe\x01\x02\n", 6);
    memcpy(text + 106, "1...2...3...4...\n", 17);
    struct entry e[16];
    const int n = read_all(text, 123, NULL, e, 16);
    assert_int_equal(n, 3);
    assert_int_equal(e[0].status, CORPUS_BAD);
    assert_string_equal(e[0].why, "binary data (NUL byte)");
    assert_int_equal(e[1].status, CORPUS_BAD);
    assert_int_equal(e[2].status, CORPUS_PUZZLE);
    assert_int_equal(e[2].line, 3);
}

static void a_two_megabyte_line(void **state)
{
    (void) state;
    const size_t big = 2u << 20;
    char *text = malloc(big + 64);
    assert_non_null(text);
    memset(text, '.', big);
    text[big] = '\n';
    memcpy(text + big + 1, "1...2...3...4...\n", 17);
    struct entry e[16];
    const int n = read_all(text, big + 18, NULL, e, 16);
    free(text);
    assert_int_equal(n, 2);
    assert_int_equal(e[0].status, CORPUS_BAD);
    assert_non_null(strstr(e[0].why, "line too long (2097152 bytes)"));
    assert_int_equal(e[1].status, CORPUS_PUZZLE);
    assert_int_equal(e[1].line, 2);
}

static void files_that_cannot_be_read(void **state)
{
    (void) state;
    char why[200];
    assert_null(corpus_open("/nonexistent/sudolab/corpus.txt", NULL, why, sizeof(why)));
    assert_non_null(strstr(why, "No such file"));
    if (geteuid() != 0) { /* root reads anything */
        char path[] = "/tmp/sudolab-unreadable-XXXXXX";
        const int fd = mkstemp(path);
        assert_true(fd >= 0);
        close(fd);
        chmod(path, 0);
        assert_null(corpus_open(path, NULL, why, sizeof(why)));
        assert_non_null(strstr(why, "Permission denied"));
        unlink(path);
    }
}

int main(int argc, char **argv)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(lines_with_comments_crlf_and_fields),
        cmocka_unit_test(zeros_are_blanks),
        cmocka_unit_test(header_comment_sets_the_variant),
        cmocka_unit_test(whitespace_grids_like_seed_002),
        cmocka_unit_test(grid_with_a_missing_row),
        cmocka_unit_test(grid_rows_of_wrong_width_or_value),
        cmocka_unit_test(bad_lines_do_not_stop_the_reader),
        cmocka_unit_test(odd_separators_in_grid_rows),
        cmocka_unit_test(forced_size_and_format),
        cmocka_unit_test(empty_and_comment_only_inputs),
        cmocka_unit_test(binary_data),
        cmocka_unit_test(a_two_megabyte_line),
        cmocka_unit_test(files_that_cannot_be_read),
    };
    const struct test_group plain = { "corpus", tests, TEST_COUNT(tests), NULL, NULL };
    return test_main(argc, argv, &plain, NULL);
}
