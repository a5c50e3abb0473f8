#include "puzzle/logic.h"

#include <string.h>

static const char *const technique_names[LOGIC_TECHNIQUE_COUNT] = {
#define X(name, label) #name,
    LOGIC_TECHNIQUES(X)
#undef X
};

static const char *const technique_labels[LOGIC_TECHNIQUE_COUNT] = {
#define X(name, label) label,
    LOGIC_TECHNIQUES(X)
#undef X
};

const char *logic_technique_name(int technique)
{
    if (technique >= 0 && technique < LOGIC_TECHNIQUE_COUNT)
        return technique_names[technique];
    return technique == LOGIC_TECHNIQUE_COUNT ? "guessing" : "none";
}

const char *logic_technique_label(int technique)
{
    if (technique >= 0 && technique < LOGIC_TECHNIQUE_COUNT)
        return technique_labels[technique];
    return technique == LOGIC_TECHNIQUE_COUNT ? "needs guessing" : "nothing";
}

int logic_parse_technique(const char *name)
{
    for (int t = LOGIC_NONE; t <= LOGIC_TECHNIQUE_COUNT; t++) {
        if (strcmp(name, logic_technique_name(t)) == 0)
            return t;
    }
    return -2;
}

static int popcount(uint32_t x)
{
    return __builtin_popcount(x);
}

static int lowest_value(uint32_t bits)
{
    return __builtin_ctz(bits) + 1;
}

static bool unit_has_cell(const struct units *u, int unit, int cell)
{
    for (int i = 0; i < u->cell_nunits[cell]; i++) {
        if (u->cell_unit[cell][i] == unit)
            return true;
    }
    return false;
}

static bool is_box(const struct units *u, int unit)
{
    return unit >= 2 * u->n && unit < 3 * u->n;
}

static void build_pairs(struct logic *lg)
{
    const struct units *u = &lg->units;
    lg->npairs = 0;
    for (int a = 0; a < u->nunits; a++) {
        for (int b = 0; b < u->nunits; b++) {
            if (a == b)
                continue;
            int common = 0;
            for (int k = 0; k < u->n; k++)
                common += unit_has_cell(u, b, u->unit_cell[a][k]);
            /* a pair sharing every cell (1xN boxes) removes nothing */
            if (common >= 2 && common < u->n) {
                lg->pair[lg->npairs][0] = (uint8_t) a;
                lg->pair[lg->npairs][1] = (uint8_t) b;
                lg->npairs++;
            }
        }
    }
}

static void place(struct logic *lg, int cell, int value)
{
    const struct units *u = &lg->units;
    const uint32_t bit = 1u << (value - 1);
    lg->g.cell[cell] = (uint8_t) value;
    lg->cand[cell] = 0;
    lg->nempty--;
    for (int i = 0; i < u->npeers[cell]; i++)
        lg->cand[u->peer[cell][i]] &= ~bit;
    for (int i = 0; i < u->cell_nunits[cell]; i++)
        lg->unit_placed[u->cell_unit[cell][i]] |= bit;
}

bool logic_load(struct logic *lg, const struct grid *g)
{
    if (!units_fit(&lg->units, g)) {
        units_build(&lg->units, g);
        build_pairs(lg);
    }
    lg->g = *g;
    lg->full = (uint32_t) ((1ull << g->n) - 1);
    lg->contradiction = false;
    lg->nempty = 0;
    memset(lg->unit_placed, 0, sizeof(lg->unit_placed));
    for (int c = 0; c < g->ncells; c++) {
        lg->cand[c] = g->cell[c] ? 0 : lg->full;
        lg->nempty += g->cell[c] == 0;
    }
    const struct units *u = &lg->units;
    for (int c = 0; c < g->ncells; c++) {
        const int v = g->cell[c];
        if (!v)
            continue;
        const uint32_t bit = 1u << (v - 1);
        for (int i = 0; i < u->cell_nunits[c]; i++) {
            const int unit = u->cell_unit[c][i];
            if (lg->unit_placed[unit] & bit)
                lg->contradiction = true;
            lg->unit_placed[unit] |= bit;
        }
        for (int i = 0; i < u->npeers[c]; i++)
            lg->cand[u->peer[c][i]] &= ~bit;
    }
    return !lg->contradiction;
}

static void step_init(struct logic_step *s, int technique, int unit)
{
    s->technique = technique;
    s->cell = -1;
    s->value = 0;
    s->unit = unit;
    s->values = 0;
    s->npattern = 0;
    s->nelim = 0;
}

static void add_pattern(struct logic_step *s, int cell)
{
    if (s->npattern < LOGIC_MAX_PATTERN)
        s->pattern[s->npattern++] = (uint16_t) cell;
}

static void add_elims(struct logic_step *s, int cell, uint32_t bits)
{
    while (bits && s->nelim < LOGIC_MAX_ELIMS) {
        s->elim[s->nelim].cell = (uint16_t) cell;
        s->elim[s->nelim].value = (uint8_t) lowest_value(bits);
        s->nelim++;
        bits &= bits - 1;
    }
}

/* A cell where a pattern's value is a candidate: part of the pattern, or a
 * candidate the pattern eliminates. */
static void mark_candidate(
    struct logic_step *s, const struct logic *lg, int cell, uint32_t bit, bool in_pattern)
{
    if (!(lg->cand[cell] & bit))
        return;
    if (in_pattern)
        add_pattern(s, cell);
    else
        add_elims(s, cell, bit);
}

static bool find_naked_single(struct logic *lg, struct logic_step *s)
{
    for (int c = 0; c < lg->g.ncells; c++) {
        if (lg->g.cell[c])
            continue;
        if (lg->cand[c] == 0) {
            lg->contradiction = true;
            return false;
        }
        if (popcount(lg->cand[c]) == 1) {
            step_init(s, LOGIC_naked_single, -1);
            s->cell = c;
            s->value = lowest_value(lg->cand[c]);
            s->values = lg->cand[c];
            add_pattern(s, c);
            return true;
        }
    }
    return false;
}

static bool find_hidden_single(struct logic *lg, struct logic_step *s)
{
    const struct units *u = &lg->units;
    for (int unit = 0; unit < u->nunits; unit++) {
        uint32_t once = 0, twice = 0;
        for (int k = 0; k < u->n; k++) {
            const uint32_t c = lg->cand[u->unit_cell[unit][k]];
            twice |= once & c;
            once |= c;
        }
        if ((once | lg->unit_placed[unit]) != lg->full) {
            lg->contradiction = true; /* a value with no place in this unit */
            return false;
        }
        const uint32_t single = once & ~twice;
        if (!single)
            continue;
        const int v = lowest_value(single);
        for (int k = 0; k < u->n; k++) {
            const int cell = u->unit_cell[unit][k];
            if (lg->cand[cell] & (1u << (v - 1))) {
                step_init(s, LOGIC_hidden_single, unit);
                s->cell = cell;
                s->value = v;
                s->values = 1u << (v - 1);
                add_pattern(s, cell);
                return true;
            }
        }
    }
    return false;
}

/* Pointing (a is a box) and claiming (a is a line): value v confined to a's
 * cells that b also holds leaves b's other cells. */
static bool find_locked(struct logic *lg, struct logic_step *s, bool pointing)
{
    const struct units *u = &lg->units;
    for (int p = 0; p < lg->npairs; p++) {
        const int a = lg->pair[p][0], b = lg->pair[p][1];
        if (is_box(u, a) != pointing)
            continue;
        for (uint32_t todo = lg->full & ~lg->unit_placed[a]; todo; todo &= todo - 1) {
            const uint32_t bit = todo & -todo;
            bool confined = true;
            for (int k = 0; k < u->n && confined; k++) {
                const int cell = u->unit_cell[a][k];
                if ((lg->cand[cell] & bit) && !unit_has_cell(u, b, cell))
                    confined = false;
            }
            if (!confined)
                continue;
            step_init(s, pointing ? LOGIC_pointing : LOGIC_claiming, a);
            s->values = bit;
            for (int k = 0; k < u->n; k++) {
                const int cell = u->unit_cell[b][k];
                mark_candidate(s, lg, cell, bit, unit_has_cell(u, a, cell));
            }
            if (s->nelim)
                return true;
        }
    }
    return false;
}

/* Combinations of `size` indices below m, in lexicographic order. */
static bool first_combination(int *pick, int size, int m)
{
    for (int i = 0; i < size; i++)
        pick[i] = i;
    return m >= size;
}

static bool next_combination(int *pick, int size, int m)
{
    int i = size - 1;
    while (i >= 0 && pick[i] == m - size + i)
        i--;
    if (i < 0)
        return false;
    pick[i]++;
    for (int j = i + 1; j < size; j++)
        pick[j] = pick[j - 1] + 1;
    return true;
}

/* The empty cells of a unit and their candidates. */
static int unit_open(const struct logic *lg, int unit, int *cells, uint32_t *cand)
{
    const struct units *u = &lg->units;
    int m = 0;
    for (int k = 0; k < u->n; k++) {
        const int cell = u->unit_cell[unit][k];
        if (lg->cand[cell]) {
            cells[m] = cell;
            cand[m] = lg->cand[cell];
            m++;
        }
    }
    return m;
}

/* Naked subset of `size` cells: their candidates together number `size`, so
 * those values leave the unit's other cells. */
static bool naked_subset(
    struct logic *lg, struct logic_step *s, int unit, int size, int technique)
{
    int cells[GRID_MAX_N], pick[3];
    uint32_t cand[GRID_MAX_N];
    const int m = unit_open(lg, unit, cells, cand);
    if (m <= size)
        return false;
    for (bool more = first_combination(pick, size, m); more;
         more = next_combination(pick, size, m)) {
        uint32_t values = 0, chosen = 0;
        for (int i = 0; i < size; i++) {
            values |= cand[pick[i]];
            chosen |= 1u << pick[i];
        }
        if (popcount(values) != size)
            continue;
        step_init(s, technique, unit);
        s->values = values;
        for (int i = 0; i < size; i++)
            add_pattern(s, cells[pick[i]]);
        for (int j = 0; j < m; j++) {
            if (!(chosen & (1u << j)))
                add_elims(s, cells[j], cand[j] & values);
        }
        if (s->nelim)
            return true;
    }
    return false;
}

/* Hidden subset of `size` values: they fit only in `size` cells together, so
 * those cells lose their other candidates. */
static bool hidden_subset(
    struct logic *lg, struct logic_step *s, int unit, int size, int technique)
{
    const struct units *u = &lg->units;
    int cells[GRID_MAX_N], values[GRID_MAX_N], pick[3];
    uint32_t cand[GRID_MAX_N], where[GRID_MAX_N]; /* bit j: cells[j] takes the value */
    const int m = unit_open(lg, unit, cells, cand);
    int nv = 0;
    for (int v = 1; v <= u->n; v++) {
        const uint32_t bit = 1u << (v - 1);
        if (lg->unit_placed[unit] & bit)
            continue;
        uint32_t w = 0;
        for (int j = 0; j < m; j++) {
            if (cand[j] & bit)
                w |= 1u << j;
        }
        values[nv] = v;
        where[nv] = w;
        nv++;
    }
    if (nv <= size)
        return false;
    for (bool more = first_combination(pick, size, nv); more;
         more = next_combination(pick, size, nv)) {
        uint32_t w = 0, bits = 0;
        for (int i = 0; i < size; i++) {
            w |= where[pick[i]];
            bits |= 1u << (values[pick[i]] - 1);
        }
        if (popcount(w) != size)
            continue;
        step_init(s, technique, unit);
        s->values = bits;
        for (uint32_t t = w; t; t &= t - 1) {
            const int j = __builtin_ctz(t);
            add_pattern(s, cells[j]);
            add_elims(s, cells[j], cand[j] & ~bits);
        }
        if (s->nelim)
            return true;
    }
    return false;
}

static bool find_subsets(struct logic *lg, struct logic_step *s, int technique)
{
    const int size
        = technique == LOGIC_naked_pair || technique == LOGIC_hidden_pair ? 2 : 3;
    const bool naked = technique == LOGIC_naked_pair || technique == LOGIC_naked_triple;
    for (int unit = 0; unit < lg->units.nunits; unit++) {
        if (naked ? naked_subset(lg, s, unit, size, technique)
                  : hidden_subset(lg, s, unit, size, technique))
            return true;
    }
    return false;
}

/* Fish of `size` (X-wing 2, swordfish 3): in `size` base lines a value fits
 * only within `size` cover lines, so it leaves the cover lines' other cells.
 * Rows as base first, then columns. */
static bool find_fish(struct logic *lg, struct logic_step *s, int size, int technique)
{
    const int n = lg->units.n;
    for (int by_cols = 0; by_cols < 2; by_cols++) {
        for (int v = 1; v <= n; v++) {
            const uint32_t bit = 1u << (v - 1);
            int base[GRID_MAX_N], nb = 0;
            uint32_t where[GRID_MAX_N];
            for (int line = 0; line < n; line++) {
                uint32_t w = 0;
                for (int k = 0; k < n; k++) {
                    const int cell = by_cols ? k * n + line : line * n + k;
                    if (lg->cand[cell] & bit)
                        w |= 1u << k;
                }
                if (popcount(w) >= 2 && popcount(w) <= size) {
                    base[nb] = line;
                    where[nb] = w;
                    nb++;
                }
            }
            int pick[3];
            for (bool more = first_combination(pick, size, nb); more;
                 more = next_combination(pick, size, nb)) {
                uint32_t cover = 0, lines = 0;
                for (int i = 0; i < size; i++) {
                    cover |= where[pick[i]];
                    lines |= 1u << base[pick[i]];
                }
                if (popcount(cover) != size)
                    continue;
                step_init(s, technique, by_cols ? n + base[pick[0]] : base[pick[0]]);
                s->values = bit;
                for (uint32_t t = cover; t; t &= t - 1) {
                    const int k = __builtin_ctz(t);
                    for (int line = 0; line < n; line++) {
                        const int cell = by_cols ? k * n + line : line * n + k;
                        mark_candidate(s, lg, cell, bit, (lines & (1u << line)) != 0);
                    }
                }
                if (s->nelim)
                    return true;
            }
        }
    }
    return false;
}

bool logic_find(struct logic *lg, struct logic_step *s)
{
    if (lg->contradiction || lg->nempty == 0)
        return false;
    for (int t = 0; t < LOGIC_TECHNIQUE_COUNT; t++) {
        bool found = false;
        switch (t) {
        case LOGIC_naked_single:
            found = find_naked_single(lg, s);
            break;
        case LOGIC_hidden_single:
            found = find_hidden_single(lg, s);
            break;
        case LOGIC_pointing:
        case LOGIC_claiming:
            found = find_locked(lg, s, t == LOGIC_pointing);
            break;
        case LOGIC_naked_pair:
        case LOGIC_hidden_pair:
        case LOGIC_naked_triple:
        case LOGIC_hidden_triple:
            found = find_subsets(lg, s, t);
            break;
        case LOGIC_x_wing:
            found = find_fish(lg, s, 2, t);
            break;
        case LOGIC_swordfish:
            found = find_fish(lg, s, 3, t);
            break;
        }
        if (lg->contradiction)
            return false;
        if (found)
            return true;
    }
    return false;
}

void logic_apply(struct logic *lg, const struct logic_step *s)
{
    if (s->cell >= 0) {
        place(lg, s->cell, s->value);
        return;
    }
    for (int i = 0; i < s->nelim; i++)
        lg->cand[s->elim[i].cell] &= ~(1u << (s->elim[i].value - 1));
}

void logic_solve(struct logic *lg, struct logic_result *res)
{
    memset(res, 0, sizeof(*res));
    res->hardest = LOGIC_NONE;
    const int start = lg->nempty;
    struct logic_step step;
    while (logic_find(lg, &step)) {
        logic_apply(lg, &step);
        res->used[step.technique]++;
        if (step.technique > res->hardest)
            res->hardest = step.technique;
    }
    res->placed = start - lg->nempty;
    res->empty = lg->nempty;
    if (lg->contradiction) {
        res->status = LOGIC_CONTRADICTION;
    } else if (lg->nempty > 0) {
        res->status = LOGIC_STUCK;
        res->hardest = LOGIC_TECHNIQUE_COUNT;
    } else {
        res->status = LOGIC_SOLVED;
    }
}

void logic_rate(struct logic *lg, const struct grid *g, struct logic_result *res)
{
    logic_load(lg, g);
    logic_solve(lg, res);
}

bool logic_hint(struct logic *lg, const struct grid *g, struct logic_step *step)
{
    return logic_load(lg, g) && logic_find(lg, step);
}
