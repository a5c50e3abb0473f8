/* gridcount/grid_essential: Burnside's sum class by class against the plain sum
 * over every element (grid_burnside.h) on 4x4 and 6x6, the fixed grids of
 * the 23 9x9 classes whose cells run in long cycles against a brute force
 * that fixes sigma to each cycle type and fills whole cycles of cells, and
 * every 9x9 class counted here that fixes grids against Russell and Jarvis's
 * published table. */
#include <string.h>

#include "gridcount/grid_burnside.h"
#include "gridcount/grid_essential.h"
#include "test_util.h"

/* Russell and Jarvis, "Mathematics of Sudoku II" (2006): the 27 conjugacy
 * classes of the 9x9 group that fix grids, as (class size, grids fixed up to
 * relabelling), the table's second and fourth columns; every other class fixes
 * none. The lemma's sum over them is 5,472,730,538 * |G|
 * (test_published_table_adds_up checks the transcription). */
static const struct {
    uint64_t size, fixed_up_to_relabelling;
} published[] = {
    { 1, 18383222420692992u },
    { 96, 21233664 },
    { 16, 107495424 },
    { 192, 4204224 },
    { 64, 2508084 },
    { 5184, 323928 },
    { 20736, 162 },
    { 20736, 288 },
    { 144, 14837760 },
    { 1728, 2592 },
    { 288, 5184 },
    { 864, 2085120 },
    { 3456, 1296 },
    { 1728, 294912 },
    { 2304, 648 },
    { 1152, 6342480 },
    { 1296, 30258432 },
    { 10368, 1854 },
    { 93312, 288 },
    { 2916, 155492352 },
    { 69984, 13056 },
    { 972, 449445888 },
    { 3888, 27648 },
    { 31104, 6480 },
    { 15552, 1728 },
    { 15552, 3456 },
    { 7776, 13824 },
};

enum { NINE_FACTORIAL = 362880 };

/* Fails unless a 9x9 class's count is a row of the published table: FIXED
 * counts each grid once per relabelling that maps it, so it is 9! times the
 * table's number. */
static void assert_published(const struct grid_essential_class *c, const char *what)
{
    if (c->fixed == 0)
        return;
    for (size_t i = 0; i < TEST_COUNT(published); i++) {
        if (published[i].size == c->size
            && c->fixed
                == (grid_count_u128) published[i].fixed_up_to_relabelling
                    * NINE_FACTORIAL)
            return;
    }
    fail_msg("%s: a class of size %llu fixing %llu * 9! + %llu grids is not in the "
             "published table",
        what, (unsigned long long) c->size,
        (unsigned long long) (c->fixed / NINE_FACTORIAL),
        (unsigned long long) (c->fixed % NINE_FACTORIAL));
}

static void test_published_table_adds_up(void **state)
{
    (void) state;
    grid_count_u128 sum = 0;
    for (size_t i = 0; i < TEST_COUNT(published); i++)
        sum += (grid_count_u128) published[i].size * published[i].fixed_up_to_relabelling;
    assert_true(sum == (grid_count_u128) 5472730538u * 3359232u);
    /* the identity's row is the 9x9 total (Felgenhauer and Jarvis) over 9! */
    assert_true((grid_count_u128) published[0].fixed_up_to_relabelling * NINE_FACTORIAL
        == (grid_count_u128) 6670903752u * 1000000000000u + 21072936960u);
}

static struct grid_essential *classes_of(int box_rows, int box_cols)
{
    char why[160];
    struct grid_essential *ge = grid_essential_new(box_rows, box_cols, why, sizeof(why));
    if (!ge)
        fail_msg("grid_essential_new %dx%d: %s", box_rows, box_cols, why);
    return ge;
}

/* The total of all grids, from band reduction. */
static grid_count_u128 total_of(int box_rows, int box_cols)
{
    char why[160];
    struct grid_count *gc = grid_count_new(box_rows, box_cols, why, sizeof(why));
    assert_non_null(gc);
    for (size_t k = 0; k < grid_count_classes(gc); k++)
        grid_count_orders(gc, k);
    grid_count_u128 total = 0;
    for (size_t k = 0; k < grid_count_classes(gc); k++) {
        const struct grid_count_class *c = grid_count_class_at(gc, k);
        total += (grid_count_u128) c->orbit * c->labels * c->orders
            * grid_count_completions(gc, k);
    }
    grid_count_free(gc);
    return total;
}

static void test_small_shapes_agree_with_plain_sum(void **state)
{
    (void) state;
    static const int shapes[][3] = { { 2, 2, 2 }, { 2, 3, 49 }, { 3, 2, 49 } };
    for (size_t i = 0; i < TEST_COUNT(shapes); i++) {
        const int br = shapes[i][0], bc = shapes[i][1];
        const grid_count_u128 total = total_of(br, bc);
        struct grid_burnside plain;
        char why[160];
        assert_int_equal(grid_burnside_count(br, bc, total, &plain, why, sizeof(why)), 0);
        struct grid_essential *ge = classes_of(br, bc);
        assert_int_equal(grid_essential_group(ge), plain.group);
        uint64_t elements = 0;
        for (size_t k = 0; k < grid_essential_classes(ge); k++) {
            assert_true(grid_essential_count(ge, k, total, 0));
            elements += grid_essential_class_at(ge, k)->size;
        }
        assert_int_equal(elements, plain.group);
        grid_count_u128 sum, essential;
        assert_int_equal(grid_essential_sum(ge, &sum, &essential, why, sizeof(why)), 0);
        assert_true(sum == plain.fixed);
        assert_true(essential == (grid_count_u128) shapes[i][2]);
        grid_essential_free(ge);
    }
}

/* --- the brute force: sigma fixed, cycles of cells filled whole --- */

struct brute {
    int n, br, bc;
    uint8_t pi[81], sigma[10], x[81];
    uint64_t grids;
};

static bool brute_fits(const struct brute *b, int p, int v)
{
    const int n = b->n, r = p / n, c = p % n;
    for (int i = 0; i < n; i++) {
        const int br = r / b->br * b->br + i / b->bc, bc = c / b->bc * b->bc + i % b->bc;
        if (b->x[r * n + i] == v || b->x[i * n + c] == v || b->x[br * n + bc] == v)
            return false;
    }
    return true;
}

static void brute_search(struct brute *b, int p)
{
    while (p < b->n * b->n && b->x[p])
        p++;
    if (p == b->n * b->n) {
        b->grids++;
        return;
    }
    for (int v = 1; v <= b->n; v++) {
        int cycle[81], len = 0, q = p, w = v;
        bool ok = true;
        do { /* X[pi[q]] = sigma(X[q]) along the cycle through p */
            ok = brute_fits(b, q, w);
            if (ok) {
                b->x[q] = (uint8_t) w;
                cycle[len++] = q;
            }
            q = b->pi[q];
            w = b->sigma[w];
        } while (ok && q != p);
        if (ok && w == v)
            brute_search(b, p + 1);
        for (int i = 0; i < len; i++)
            b->x[cycle[i]] = 0;
    }
}

/* sigma maps the values start..start+len-1 round in a cycle. The parts of 9
 * keep them within 1..9; the check says so to gcc 12, whose
 * -Wstringop-overflow cannot see it through the recursion at -O3. */
static void set_cycle(struct brute *b, int start, int len)
{
    if (start < 1 || start + len > (int) sizeof(b->sigma)) {
        fail_msg("cycle %d..%d is out of 1..9", start, start + len - 1);
        return;
    }
    for (int d = 0; d < len; d++)
        b->sigma[start + d] = (uint8_t) (start + (d + 1) % len);
}

/* Sum over the cycle types of S_9 (partitions of 9) of class size * grids. */
static grid_count_u128 brute_types(
    struct brute *b, int left, int largest, int *parts, int nparts)
{
    if (left > 0) {
        grid_count_u128 sum = 0;
        for (int k = left < largest ? left : largest; k >= 1; k--) {
            parts[nparts] = k;
            sum += brute_types(b, left - k, k, parts, nparts + 1);
        }
        return sum;
    }
    uint64_t size = 362880;
    for (int i = 0, start = 1; i < nparts; start += parts[i++]) {
        int same = 1;
        for (int j = 0; j < i; j++)
            same += parts[j] == parts[i];
        size /= (uint64_t) (parts[i] * same);
        set_cycle(b, start, parts[i]);
    }
    memset(b->x, 0, sizeof(b->x));
    b->grids = 0;
    brute_search(b, 0);
    return (grid_count_u128) size * b->grids;
}

/* The shortest cycle of the class's map on cells. */
static int shortest_cycle(const struct grid_essential_class *c, struct brute *b)
{
    for (int r = 0; r < 9; r++)
        for (int col = 0; col < 9; col++)
            b->pi[r * 9 + col] = (uint8_t) (c->flip ? c->cols[col] * 9 + c->rows[r]
                                                    : c->rows[r] * 9 + c->cols[col]);
    int shortest = 81;
    for (int p = 0; p < 81; p++) {
        int len = 1;
        for (int q = b->pi[p]; q != p; q = b->pi[q])
            len++;
        shortest = len < shortest ? len : shortest;
    }
    return shortest;
}

static void test_nine_by_nine_long_cycles_agree_with_brute_force(void **state)
{
    (void) state;
    struct grid_essential *ge = classes_of(3, 3);
    assert_int_equal(grid_essential_classes(ge), 275);
    assert_int_equal(grid_essential_group(ge), 3359232);
    int checked = 0, nonzero = 0;
    for (size_t k = 0; k < grid_essential_classes(ge); k++) {
        const struct grid_essential_class *c = grid_essential_class_at(ge, k);
        struct brute b = { .n = 9, .br = 3, .bc = 3 };
        if (shortest_cycle(c, &b) < 9)
            continue;
        int parts[9];
        const grid_count_u128 brute = brute_types(&b, 9, 9, parts, 0);
        assert_true(grid_essential_count(ge, k, 0, 2000000));
        assert_true(c->fixed == brute);
        assert_published(c, "long cycles");
        checked++;
        nonzero += brute != 0;
    }
    printf("# %d classes checked, %d of them fix grids\n", checked, nonzero);
    assert_int_equal(checked, 23);
    assert_int_equal(nonzero, 6);
    grid_essential_free(ge);
}

/* The band join against the search, class by class: every class of 4x4
 * and 6x6 (both orientations) that keeps bands or stacks, and 9x9 classes
 * that the search counts within its budget. */
static void test_band_join_agrees_with_search(void **state)
{
    (void) state;
    static const int shapes[][2] = { { 2, 2 }, { 2, 3 }, { 3, 2 } };
    for (size_t i = 0; i < TEST_COUNT(shapes); i++) {
        struct grid_essential *ge = classes_of(shapes[i][0], shapes[i][1]);
        int joined = 0;
        for (size_t k = 0; k < grid_essential_classes(ge); k++) {
            if (grid_essential_class_at(ge, k)->identity
                || !grid_essential_count_by_bands(ge, k))
                continue;
            const grid_count_u128 by_bands = grid_essential_class_at(ge, k)->fixed;
            assert_true(grid_essential_count(ge, k, 0, 0));
            assert_true(grid_essential_class_at(ge, k)->fixed == by_bands);
            joined++;
        }
        assert_true(joined >= 10);
        grid_essential_free(ge);
    }
    static const struct {
        size_t k;
        const char *what;
    } nine[] = {
        { 21, "rows 1, cols (1 4 7 2 5 8 3 6 9)" },
        { 114, "rows (4 5 6)(7 8 9), cols (1 4 7)(2 5 8)(3 6 9)" },
        { 171, "rows (2 3)(5 6)(8 9), cols (1 2 3)(4 7 5 8 6 9)" },
    };
    struct grid_essential *ge = classes_of(3, 3);
    for (size_t i = 0; i < TEST_COUNT(nine); i++) {
        char what[160];
        grid_essential_describe(
            grid_essential_class_at(ge, nine[i].k), 9, what, sizeof(what));
        assert_string_equal(what, nine[i].what);
        assert_true(grid_essential_count_by_bands(ge, nine[i].k));
        const grid_count_u128 by_bands = grid_essential_class_at(ge, nine[i].k)->fixed;
        assert_true(by_bands != 0);
        assert_true(grid_essential_count(ge, nine[i].k, 0, 2000000));
        assert_true(grid_essential_class_at(ge, nine[i].k)->nodes <= 2000000);
        assert_true(grid_essential_class_at(ge, nine[i].k)->fixed == by_bands);
        assert_published(grid_essential_class_at(ge, nine[i].k), nine[i].what);
    }
    grid_essential_free(ge);
}

/* The bands counted by their column sets against the bands listed one by
 * one, class by class: every class of 4x4 and 6x6 (both orientations) that
 * the band join takes, 9x9 and 8x8 classes whose bands list quickly, and
 * 8x8's swap of the columns of every stack, whose bands are too many to
 * list here, against its count by hand. */
static void test_column_sets_agree_with_listing(void **state)
{
    (void) state;
    static const int shapes[][2] = { { 2, 2 }, { 2, 3 }, { 3, 2 } };
    for (size_t i = 0; i < TEST_COUNT(shapes); i++) {
        struct grid_essential *ge = classes_of(shapes[i][0], shapes[i][1]);
        int joined = 0, nonzero = 0;
        for (size_t k = 0; k < grid_essential_classes(ge); k++) {
            if (grid_essential_class_at(ge, k)->identity
                || !grid_essential_count_by_bands(ge, k))
                continue;
            const grid_count_u128 listed = grid_essential_class_at(ge, k)->fixed;
            assert_true(grid_essential_count_by_column_sets(ge, k));
            assert_true(grid_essential_class_at(ge, k)->fixed == listed);
            joined++;
            nonzero += listed != 0;
        }
        assert_true(joined >= 10);
        assert_true(nonzero >= 2);
        grid_essential_free(ge);
    }
    static const struct {
        int br, bc;
        size_t k;
        const char *what;
    } quick[] = {
        { 3, 3, 114, "rows (4 5 6)(7 8 9), cols (1 4 7)(2 5 8)(3 6 9)" },
        { 3, 3, 171, "rows (2 3)(5 6)(8 9), cols (1 2 3)(4 7 5 8 6 9)" },
        { 4, 2, 18, "rows 1, cols (1 3 5 7)(2 4 6 8)" },
        { 4, 2, 37, "rows (7 8), cols (1 3 2 4)(5 7 6 8)" },
        { 4, 2, 38, "rows (7 8), cols (1 3 5 7)(2 4 6 8)" },
    };
    for (size_t i = 0; i < TEST_COUNT(quick); i++) {
        struct grid_essential *ge = classes_of(quick[i].br, quick[i].bc);
        const struct grid_essential_class *c = grid_essential_class_at(ge, quick[i].k);
        char what[160];
        grid_essential_describe(c, quick[i].br * quick[i].bc, what, sizeof(what));
        assert_string_equal(what, quick[i].what);
        assert_true(grid_essential_count_by_bands(ge, quick[i].k));
        const grid_count_u128 listed = c->fixed;
        assert_true(listed != 0);
        assert_true(grid_essential_count_by_column_sets(ge, quick[i].k));
        assert_true(c->fixed == listed);
        grid_essential_free(ge);
    }
    /* g swaps the two columns of every stack of 8x8 (4x2 boxes): a fixed
     * grid has sigma of each cell in the cell beside it, so sigma is an
     * involution without fixed digits (8! / (2^4 4!) = 105 of them) and
     * each band is a Latin square of sigma's 4 pairs (576) with each cell
     * oriented (2^16), its column sets the orientations. The second band's
     * orientations are the first's reversed: 105 * 2^16 * 576^2 grids. */
    struct grid_essential *ge = classes_of(4, 2);
    const struct grid_essential_class *c = grid_essential_class_at(ge, 10);
    char what[160];
    grid_essential_describe(c, 8, what, sizeof(what));
    assert_string_equal(what, "rows 1, cols (1 2)(3 4)(5 6)(7 8)");
    assert_true(grid_essential_count_by_column_sets(ge, 10));
    assert_true(c->fixed == (grid_count_u128) 105 * 65536 * 576 * 576);
    assert_true(grid_essential_count(ge, 10, 0, 2000000));
    assert_true(c->fixed == (grid_count_u128) 105 * 65536 * 576 * 576);
    grid_essential_free(ge);
}

/* The orbit join and the transpose's count against the search, class by
 * class: every class of 4x4 and 6x6 that moves bands or is the transpose
 * keeping the rows, and 9x9 classes that move bands and that the search
 * counts within its budget. */
static void test_orbit_join_agrees_with_search(void **state)
{
    (void) state;
    static const int shapes[][3] = { { 2, 2, 3 }, { 3, 2, 10 } };
    for (size_t i = 0; i < TEST_COUNT(shapes); i++) {
        const int br = shapes[i][0], n = shapes[i][0] * shapes[i][1];
        struct grid_essential *ge = classes_of(br, shapes[i][1]);
        int joined = 0, nonzero = 0, transposed = 0;
        for (size_t k = 0; k < grid_essential_classes(ge); k++) {
            struct grid_essential_class c = *grid_essential_class_at(ge, k);
            bool moves = false;
            for (int r = 0; r < n; r++)
                moves |= c.rows[r] / br != r / br;
            if (c.identity || !grid_essential_count_by_orbits(ge, k)) {
                assert_false(moves && !c.flip); /* every such map is joined */
                continue;
            }
            const grid_count_u128 by_orbits = grid_essential_class_at(ge, k)->fixed;
            assert_true(grid_essential_count(ge, k, 0, 0));
            assert_true(grid_essential_class_at(ge, k)->fixed == by_orbits);
            joined++;
            nonzero += by_orbits != 0;
            transposed += c.flip;
        }
        print_message("%dx%d: %d classes joined, %d of them fix grids\n", br,
            shapes[i][1], joined, nonzero);
        assert_true(nonzero >= shapes[i][2]);
        assert_int_equal(transposed, br == shapes[i][1] ? 1 : 0);
        grid_essential_free(ge);
    }
    static const struct {
        size_t k;
        const char *what;
    } nine[] = {
        { 131, "rows (4 7)(5 8)(6 9), cols (1 4 7)(2 5 8 3 6 9)" },
        { 160, "rows (4 7 5 8 6 9), cols (1 4 7)(2 5 8 3 6 9)" },
        { 245, "rows (1 2 3)(4 7 5 8 6 9), cols (1 4 7)(2 5 8 3 6 9)" },
        { 249, "rows (1 4 7)(2 5 8)(3 6 9), cols (1 4 7 2 5 8 3 6 9)" },
        { 252, "rows (1 4 7 2 5 8 3 6 9), cols (1 4 7 2 5 8 3 6 9)" },
    };
    struct grid_essential *ge = classes_of(3, 3);
    for (size_t i = 0; i < TEST_COUNT(nine); i++) {
        char what[160];
        grid_essential_describe(
            grid_essential_class_at(ge, nine[i].k), 9, what, sizeof(what));
        assert_string_equal(what, nine[i].what);
        assert_true(grid_essential_count_by_orbits(ge, nine[i].k));
        const grid_count_u128 by_orbits = grid_essential_class_at(ge, nine[i].k)->fixed;
        assert_true(by_orbits != 0);
        assert_true(grid_essential_count(ge, nine[i].k, 0, 2000000));
        assert_true(grid_essential_class_at(ge, nine[i].k)->nodes <= 2000000);
        assert_true(grid_essential_class_at(ge, nine[i].k)->fixed == by_orbits);
    }
    /* beyond the search: the cycle of bands and stacks, and the transpose,
     * against the published table (class 199, the band swap, takes seconds:
     * the benchmark grid-essential-9x9 has it) */
    static const struct {
        size_t k;
        const char *what;
    } beyond[] = {
        { 247, "rows (1 4 7)(2 5 8)(3 6 9), cols (1 4 7)(2 5 8)(3 6 9)" },
        { 253, "transpose, rows 1" },
    };
    for (size_t i = 0; i < TEST_COUNT(beyond); i++) {
        const struct grid_essential_class *c = grid_essential_class_at(ge, beyond[i].k);
        char what[160];
        grid_essential_describe(c, 9, what, sizeof(what));
        assert_string_equal(what, beyond[i].what);
        assert_true(grid_essential_count_by_orbits(ge, beyond[i].k));
        assert_true(c->fixed != 0);
        assert_published(c, what);
    }
    grid_essential_free(ge);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_published_table_adds_up),
        cmocka_unit_test(test_small_shapes_agree_with_plain_sum),
        cmocka_unit_test(test_nine_by_nine_long_cycles_agree_with_brute_force),
        cmocka_unit_test(test_band_join_agrees_with_search),
        cmocka_unit_test(test_orbit_join_agrees_with_search),
        cmocka_unit_test(test_column_sets_agree_with_listing),
    };
    const struct test_group plain
        = { "grid_essential", tests, TEST_COUNT(tests), NULL, NULL };
    return test_main(argc, argv, &plain, NULL);
}
