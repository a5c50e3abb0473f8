/* The `wide` back end's propagation and search, written once for both board
 * sizes and every instruction-set path.
 *
 * This is a template: solvers/wide.c includes it once per board size and
 * path, after defining
 *   WK_LANE    the integer type of one row of a digit's plane (uint16_t for
 *              N <= 16, uint32_t for N <= 32);
 *   WK_ROWS    rows per plane, a power of two >= N (16 or 32);
 *   WK_MAXN    the largest N the instance serves (planes per board);
 *   WK_SUFFIX  appended to every name of the instance (s_avx2, l_portable ...);
 *   WK_BR, WK_BC  optionally, the box height and width, for an instance
 *              made for one box shape (its box rules are then whole-vector
 *              operations);
 *   WK_TARGET  a function attribute such as __attribute__((target("avx2"))),
 *              or nothing for the portable path.
 * It uses GNU C vector extensions only, so the same source is plain C for the
 * compiler's baseline (and WebAssembly) and AVX2 or AVX-512 code under a
 * target attribute. The layout and the rules are described in wide.c; the
 * scalar helpers (wide_*) are defined there before the first inclusion. */

#define WK_CAT2(a, b) a##_##b
#define WK_CAT(a, b) WK_CAT2(a, b)
#define WK(name) WK_CAT(name, WK_SUFFIX)
#define WK_FN static inline __attribute__((always_inline)) WK_TARGET
#define WK_WORDS ((int) (WK_ROWS * sizeof(WK_LANE) / 8))
#define WK_LANEBITS ((int) (8 * sizeof(WK_LANE)))

typedef WK_LANE WK(vec) __attribute__((vector_size(WK_ROWS * sizeof(WK_LANE))));

/* One candidate plane per digit: lane r, bit c = "the digit may go in row r,
 * column c". Planes of digits >= N and lanes of rows >= N stay zero. */
struct WK(board) {
    WK(vec) cand[WK_MAXN];
};

/* The puzzle's geometry as masks of this instance's types. */
struct WK(geo) {
    int n, box_rows, box_cols, bands, stacks;
    bool diagonal;
    WK_LANE all; /* the N columns */
    WK_LANE stack[WK_MAXN]; /* the columns of each stack */
    WK(vec) valid; /* every cell of the grid */
    WK(vec) band[WK_MAXN]; /* all bits of the rows of each band */
    WK(vec) diag[2]; /* main diagonal, anti-diagonal */
    WK_LANE starts; /* the first column of each stack */
    WK(vec) valid_starts; /* starts, in the N rows */
    WK(vec) first_rows; /* all bits of the first row of each band */
};

/* The scratch of a search (allocated by wide.c, WIDE_ALIGN-aligned): the
 * geometry, then the stack of ncells + 1 boards (at most one pending branch
 * per cell decided on the current path). */
struct WK(priv) {
    struct WK(geo) geo;
    struct WK(board) stack[];
};

static size_t WK(wide_need)(int ncells)
{
    return sizeof(struct WK(priv)) + (size_t) (ncells + 1) * sizeof(struct WK(board));
}

/* The 64-bit words of a vector, for folds across its lanes. */
WK_FN void WK(words)(WK(vec) x, uint64_t w[WK_WORDS])
{
    memcpy(w, &x, sizeof(x));
}

/* Whether any lane of x is non-zero: the halves ORed down to 256 bits and one
 * test instruction where the path has it (WK_TEST256), else an OR of words. */
WK_FN bool WK(any)(WK(vec) x)
{
#if defined(WK_TEST256)
#if WK_ROWS * 2 == 32 /* 16 lanes of 16 bits: one 256-bit vector */
    return WK_TEST256(x);
#else /* 32 lanes of 32 bits */
    typedef WK_LANE half __attribute__((vector_size(64)));
    typedef WK_LANE quarter __attribute__((vector_size(32)));
    const half h = __builtin_shufflevector(
                       x, x, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
        | __builtin_shufflevector(
            x, x, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31);
    const quarter q = __builtin_shufflevector(h, h, 0, 1, 2, 3, 4, 5, 6, 7)
        | __builtin_shufflevector(h, h, 8, 9, 10, 11, 12, 13, 14, 15);
    return WK_TEST256(q);
#endif
#else
    uint64_t w[WK_WORDS];
    WK(words)(x, w);
    uint64_t a = 0;
    for (int i = 0; i < WK_WORDS; i++)
        a |= w[i];
    return a != 0;
#endif
}

WK_FN int WK(count)(WK(vec) x)
{
    uint64_t w[WK_WORDS];
    WK(words)(x, w);
    int n = 0;
    for (int i = 0; i < WK_WORDS; i++)
        n += WIDE_POPCOUNT64(w[i]);
    return n;
}

/* Saturating counters across the lanes (rows) of x: *once, the columns set in
 * one row or more; *twice, in two or more. */
WK_FN void WK(fold)(WK(vec) x, WK_LANE *once, WK_LANE *twice)
{
    uint64_t w[WK_WORDS];
    WK(words)(x, w);
    uint64_t o = 0, t = 0;
    for (int i = 0; i < WK_WORDS; i++) {
        t |= o & w[i];
        o |= w[i];
    }
    for (int sh = 32; sh >= WK_LANEBITS; sh /= 2) {
        t |= (t >> sh) | (o & (o >> sh));
        o |= o >> sh;
    }
    *once = (WK_LANE) o;
    *twice = (WK_LANE) t;
}

/* Lanes that are zero, as an all-ones / zero mask. */
WK_FN WK(vec) WK(is_zero)(WK(vec) x)
{
    const WK(vec) zero = { 0 };
    return (WK(vec))(x == zero);
}

static void WK(geo_init)(struct WK(geo) * g, const struct grid *puzzle)
{
    memset(g, 0, sizeof(*g));
    g->n = puzzle->n;
    g->box_rows = puzzle->box_rows;
    g->box_cols = puzzle->box_cols;
    g->bands = g->n / g->box_rows;
    g->stacks = g->n / g->box_cols;
    g->diagonal = puzzle->variant == GRID_DIAGONAL;
    g->all = (WK_LANE) ((1ull << g->n) - 1);
    for (int s = 0; s < g->stacks; s++)
        g->stack[s] = (WK_LANE) (((1ull << g->box_cols) - 1) << (s * g->box_cols));
    for (int r = 0; r < g->n; r++) {
        g->valid[r] = g->all;
        g->band[r / g->box_rows][r] = (WK_LANE) ~(WK_LANE) 0;
        g->diag[0][r] = (WK_LANE) (1u << r);
        g->diag[1][r] = (WK_LANE) (1u << (g->n - 1 - r));
        if (r % g->box_rows == 0)
            g->first_rows[r] = (WK_LANE) ~(WK_LANE) 0;
    }
    for (int s = 0; s < g->stacks; s++)
        g->starts |= (WK_LANE) (1u << (s * g->box_cols));
    g->valid_starts = g->valid & g->starts;
}

static void WK(from_grid)(
    struct WK(board) * b, const struct WK(geo) * g, const struct grid *puzzle)
{
    memset(b, 0, sizeof(*b));
    for (int d = 0; d < g->n; d++)
        b->cand[d] = g->valid;
    for (int cell = 0; cell < puzzle->ncells; cell++) {
        const int v = puzzle->cell[cell];
        if (!v)
            continue;
        const int r = cell / g->n, c = cell % g->n;
        for (int d = 0; d < g->n; d++) {
            if (d != v - 1)
                b->cand[d][r] &= (WK_LANE) ~(1u << c);
        }
    }
}

static void WK(to_grid)(
    const struct WK(board) * b, const struct WK(geo) * g, struct grid *out)
{
    for (int d = 0; d < g->n; d++) {
        for (int r = 0; r < g->n; r++) {
            uint32_t lane = b->cand[d][r];
            for (; lane; lane &= lane - 1)
                out->cell[r * g->n + __builtin_ctz(lane)] = (uint8_t) (d + 1);
        }
    }
}

#if defined(WK_BR)
/* With the box height WK_BR known when compiling, the rules below are all
 * whole-vector operations: a band's rows are WK_BR consecutive lanes, folded
 * by constant lane rotations inside the band; the columns are folded by
 * constant lane exchanges; a box's columns are a group of box_cols bits of a
 * lane, folded by shifts (box_cols stays a run-time value). */
#define WK_ROT(i, j)                                                                     \
    ((i) - (i) % WK_BR + ((i) % WK_BR + (j)) % WK_BR < WK_ROWS                           \
            ? (i) - (i) % WK_BR + ((i) % WK_BR + (j)) % WK_BR                            \
            : (i))
#define WK_R1(i) WK_ROT(i, 1)
#define WK_R2(i) WK_ROT(i, 2)
#define WK_R3(i) WK_ROT(i, 3)
#define WK_R4(i) WK_ROT(i, 4)
#define WK_X1(i) ((i) ^ 1)
#define WK_X2(i) ((i) ^ 2)
#define WK_X4(i) ((i) ^ 4)
#define WK_X8(i) ((i) ^ 8)
#define WK_X16(i) ((i) ^ 16)
#define WK_I8(F, b)                                                                      \
    F(b), F(b + 1), F(b + 2), F(b + 3), F(b + 4), F(b + 5), F(b + 6), F(b + 7)
#if WK_ROWS == 16
#define WK_IDX(F) WK_I8(F, 0), WK_I8(F, 8)
#else
#define WK_IDX(F) WK_I8(F, 0), WK_I8(F, 8), WK_I8(F, 16), WK_I8(F, 24)
#endif
#define WK_SHUF(x, F) __builtin_shufflevector(x, x, WK_IDX(F))
/* The box width: a constant where the instance has one (WK_BC), so that the
 * loops over a box's columns unroll. */
#if defined(WK_BC)
#define WK_BOX_COLS(g) WK_BC
#else
#define WK_BOX_COLS(g) ((g)->box_cols)
#endif

/* Saturating counters over the lanes of each band (every lane gets its
 * band's): *once, columns with a place in one row or more; *twice, two or
 * more. */
WK_FN void WK(band_fold)(WK(vec) x, WK(vec) * once, WK(vec) * twice)
{
    WK(vec) o = x, t = { 0 }, y;
#if WK_BR > 1
    y = WK_SHUF(x, WK_R1);
    t |= o & y;
    o |= y;
#endif
#if WK_BR > 2
    y = WK_SHUF(x, WK_R2);
    t |= o & y;
    o |= y;
#endif
#if WK_BR > 3
    y = WK_SHUF(x, WK_R3);
    t |= o & y;
    o |= y;
#endif
#if WK_BR > 4
    y = WK_SHUF(x, WK_R4);
    t |= o & y;
    o |= y;
#endif
#if WK_BR > 5
#error "WK_BR must be 1 to 5"
#endif
    (void) y;
    *once = o;
    *twice = t;
}

WK_FN WK(vec) WK(band_or)(WK(vec) x)
{
    WK(vec) o, t;
    WK(band_fold)(x, &o, &t);
    return o;
}

/* The same over all lanes, as scalars: the vector is halved down to 256 bits
 * with whole-register operations, then to one lane in 64-bit words. */
WK_FN void WK(reduce)(WK(vec) x, WK_LANE *once, WK_LANE *twice)
{
    typedef uint64_t q4 __attribute__((vector_size(32)));
    typedef uint64_t q2 __attribute__((vector_size(16)));
#if WK_ROWS == 32
    typedef WK_LANE h16 __attribute__((vector_size(64)));
    typedef WK_LANE h8 __attribute__((vector_size(32)));
    const h16 lo = __builtin_shufflevector(
                  x, x, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
              hi = __builtin_shufflevector(
                  x, x, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31);
    const h16 o1 = lo | hi, t1 = lo & hi;
    const h8 olo = __builtin_shufflevector(o1, o1, 0, 1, 2, 3, 4, 5, 6, 7),
             ohi = __builtin_shufflevector(o1, o1, 8, 9, 10, 11, 12, 13, 14, 15);
    const q4 o4 = (q4) (olo | ohi),
             t4 = (q4) (__builtin_shufflevector(t1, t1, 0, 1, 2, 3, 4, 5, 6, 7)
                 | __builtin_shufflevector(t1, t1, 8, 9, 10, 11, 12, 13, 14, 15)
                 | (olo & ohi));
#else
    const q4 o4 = (q4) x, t4 = { 0 };
#endif
    const q2 olo2 = __builtin_shufflevector(o4, o4, 0, 1),
             ohi2 = __builtin_shufflevector(o4, o4, 2, 3);
    const q2 o2 = olo2 | ohi2,
             t2 = __builtin_shufflevector(t4, t4, 0, 1)
        | __builtin_shufflevector(t4, t4, 2, 3) | (olo2 & ohi2);
    uint64_t o = o2[0] | o2[1], t = t2[0] | t2[1] | (o2[0] & o2[1]);
    for (int sh = 32; sh >= WK_LANEBITS; sh /= 2) {
        t |= (t >> sh) | (o & (o >> sh));
        o |= o >> sh;
    }
    *once = (WK_LANE) o;
    *twice = (WK_LANE) t;
}

/* Every lane gets the columns' counters over all lanes. */
WK_FN void WK(all_fold)(WK(vec) x, WK(vec) * once, WK(vec) * twice)
{
    WK_LANE o, t;
    WK(reduce)(x, &o, &t);
    const WK(vec) zero = { 0 };
    *once = zero | o;
    *twice = zero | t;
}

WK_FN WK(vec) WK(all_or)(WK(vec) x)
{
    WK(vec) o, t;
    WK(all_fold)(x, &o, &t);
    return o;
}

/* Per lane and box (the bit of the stack's first column): whether x has a
 * column of the box. */
WK_FN WK(vec) WK(group_any)(const struct WK(geo) * g, WK(vec) x)
{
    WK(vec) a = x;
    for (int j = 1; j < WK_BOX_COLS(g); j++)
        a |= x >> j;
    return a & g->starts;
}

/* The same as counters: *once, one column or more; *twice, two or more. */
WK_FN void WK(group_fold)(
    const struct WK(geo) * g, WK(vec) x, WK(vec) * once, WK(vec) * twice)
{
    WK(vec) o = x & g->starts, t = { 0 };
    for (int j = 1; j < WK_BOX_COLS(g); j++) {
        const WK(vec) y = (x >> j) & g->starts;
        t |= o & y;
        o |= y;
    }
    *once = o;
    *twice = t;
}

/* Box bits (first columns) spread to all columns of their boxes. */
WK_FN WK(vec) WK(spread)(const struct WK(geo) * g, WK(vec) m)
{
    (void) g;
    return m * (WK_LANE) ((1u << WK_BOX_COLS(g)) - 1);
}

WK_FN bool WK(eliminate)(const struct WK(geo) * g, WK(vec) * pp, WK(vec) k)
{
    WK(vec) p = *pp, o, t;
    if (WK(any)(k & (k - 1)))
        return false;
    p &= k | WK(is_zero)(k);
    WK(all_fold)(k, &o, &t);
    if (WK(any)(t))
        return false;
    p &= k | ~o;
    WK(group_fold)(g, WK(band_or)(k), &o, &t);
    if (WK(any)(t))
        return false;
    p &= k | ~WK(spread)(g, o);
    if (g->diagonal) {
        for (int i = 0; i < 2; i++) {
            const int known = WK(count)(k & g->diag[i]);
            if (known > 1)
                return false;
            if (known)
                p &= k | ~g->diag[i];
        }
    }
    *pp = p;
    return true;
}

WK_FN bool WK(hidden)(const struct WK(geo) * g, WK(vec) p, WK(vec) * h)
{
    if (WK(any)(WK(is_zero)(p) & g->valid))
        return false;
    WK(vec) single = p & WK(is_zero)(p & (p - 1)), o, t;
    WK(all_fold)(p, &o, &t);
    if (WK(any)(g->valid & ~o))
        return false;
    single |= p & o & ~t;
    WK(vec) bo, bt, go, gt;
    WK(band_fold)(p, &bo, &bt);
    WK(group_fold)(g, bo, &go, &gt);
    if (WK(any)(g->valid_starts & ~go))
        return false;
    single |= p & WK(spread)(g, go & ~gt & ~WK(group_any)(g, bt));
    if (g->diagonal) {
        for (int i = 0; i < 2; i++) {
            const WK(vec) on = p & g->diag[i];
            const int places = WK(count)(on);
            if (!places)
                return false;
            if (places == 1)
                single |= on;
        }
    }
    *h = single;
    return true;
}

WK_FN bool WK(locked)(const struct WK(geo) * g, WK(vec) * pp)
{
    const WK(vec) before = *pp;
    WK(vec) p = before, o, t;
    /* rows: a (per lane) the boxes where the row has places */
    const WK(vec) a = WK(group_any)(g, before);
    WK(band_fold)(a, &o, &t);
    const WK(vec) point = a & o & ~t; /* boxes whose places lie in this row */
    p &= WK(spread)(g, point) | WK(is_zero)(point);
    const WK(vec) claim = a & WK(is_zero)(a & (a - 1)); /* the row's one box */
    p &= ~WK(spread)(g, WK(band_or)(claim) & ~claim);
    /* columns: b (per band) the columns with places */
    const WK(vec) b = WK(band_or)(before);
    WK(group_fold)(g, b, &o, &t);
    const WK(vec) pointc = b & WK(spread)(g, o & ~t);
    p &= pointc | ~WK(all_or)(pointc);
    WK(all_fold)(b & g->first_rows, &o, &t);
    const WK(vec) claimc = b & o & ~t; /* columns whose places lie in this band */
    p &= claimc | ~WK(spread)(g, WK(group_any)(g, claimc));
    *pp = p;
    return WK(any)(p ^ before);
}
#else /* box height known at run time only */

/* The known cells (one candidate) of digit d clear d from their row, column,
 * box and diagonals. Returns false when two of them share a unit. */
WK_FN bool WK(eliminate)(const struct WK(geo) * g, WK(vec) * pp, WK(vec) k)
{
    WK(vec) p = *pp;
    if (WK(any)(k & (k - 1)))
        return false;
    p &= k | WK(is_zero)(k);
    WK_LANE ko, kt;
    WK(fold)(k, &ko, &kt);
    if (kt)
        return false;
    p &= k | (WK_LANE) ~ko;
    for (int band = 0, r0 = 0; band < g->bands; band++, r0 += g->box_rows) {
        WK_LANE kb = 0, em = 0;
        for (int r = r0; r < r0 + g->box_rows; r++)
            kb |= k[r];
        if (!kb)
            continue;
        for (int s = 0; s < g->stacks; s++) {
            const WK_LANE x = kb & g->stack[s];
            if (x & (x - 1))
                return false;
            em |= x ? g->stack[s] : 0;
        }
        for (int r = r0; r < r0 + g->box_rows; r++)
            p[r] &= (WK_LANE) (k[r] | ~em);
    }
    if (g->diagonal) {
        for (int i = 0; i < 2; i++) {
            const int known = WK(count)(k & g->diag[i]);
            if (known > 1)
                return false;
            if (known)
                p &= k | ~g->diag[i];
        }
    }
    *pp = p;
    return true;
}

/* The hidden singles of digit d's plane p: the cells where d is the only
 * place of d in a row, column, box or diagonal, in *h. Returns false when d
 * has no place left in some unit. */
WK_FN bool WK(hidden)(const struct WK(geo) * g, WK(vec) p, WK(vec) * h)
{
    if (WK(any)(WK(is_zero)(p) & g->valid))
        return false;
    WK(vec) single = p & WK(is_zero)(p & (p - 1));
    WK_LANE po, pt;
    WK(fold)(p, &po, &pt);
    if (g->all & ~po)
        return false;
    single |= p & (WK_LANE) (po & ~pt);
    for (int band = 0, r0 = 0; band < g->bands; band++, r0 += g->box_rows) {
        WK_LANE bo = 0, bt = 0;
        for (int r = r0; r < r0 + g->box_rows; r++) {
            bt |= bo & p[r];
            bo |= p[r];
        }
        for (int s = 0; s < g->stacks; s++) {
            const WK_LANE x = bo & g->stack[s];
            if (!x)
                return false;
            if ((x & (x - 1)) || (bt & g->stack[s]))
                continue;
            for (int r = r0; r < r0 + g->box_rows; r++)
                single[r] |= p[r] & x;
        }
    }
    if (g->diagonal) {
        for (int i = 0; i < 2; i++) {
            const WK(vec) on = p & g->diag[i];
            const int places = WK(count)(on);
            if (!places)
                return false;
            if (places == 1)
                single |= on;
        }
    }
    *h = single;
    return true;
}

/* Locked candidates of digit d: a box whose places of d lie in one row (or
 * column) clears d from the rest of that row (column) (pointing); a row (or
 * column) whose places lie in one box clears d from the rest of the box
 * (claiming). Returns whether p changed. */
WK_FN bool WK(locked)(const struct WK(geo) * g, WK(vec) * pp)
{
    WK(vec) p = *pp;
    const WK(vec) before = p;
    WK_LANE bo[WK_MAXN], all = 0;
    for (int band = 0, r0 = 0; band < g->bands; band++, r0 += g->box_rows) {
        bo[band] = 0;
        for (int r = r0; r < r0 + g->box_rows; r++)
            bo[band] |= p[r];
    }
    WK_LANE twice = 0;
    for (int band = 0; band < g->bands; band++) {
        twice |= all & bo[band];
        all |= bo[band];
    }
    for (int band = 0, r0 = 0; band < g->bands; band++, r0 += g->box_rows) {
        /* columns whose places all lie in this band */
        const WK_LANE only = bo[band] & ~twice;
        for (int s = 0; s < g->stacks; s++) {
            const WK_LANE st = g->stack[s], x = bo[band] & st;
            int rows = 0, row = -1;
            for (int r = r0; r < r0 + g->box_rows; r++) {
                if (p[r] & st) {
                    rows++;
                    row = r;
                }
                if (p[r] && !(p[r] & ~st)) {
                    /* claiming: row r's places lie in this box */
                    for (int q = r0; q < r0 + g->box_rows; q++)
                        p[q] &= q == r ? (WK_LANE) ~0 : (WK_LANE) ~st;
                }
            }
            if (rows == 1)
                p[row] &= st;
            if (x && !(x & (x - 1)))
                p &= g->band[band] | (WK_LANE) ~x;
            const WK_LANE claim = only & st;
            if (claim && !(claim & (claim - 1))) {
                for (int r = r0; r < r0 + g->box_rows; r++)
                    p[r] &= (WK_LANE) ~(st & ~claim);
            }
        }
    }
    *pp = p;
    return WK(any)(p ^ before);
}

#endif /* WK_BR */

enum { WK(contra), WK(solved), WK(open) };

/* One data-parallel round over every digit and cell: naked singles, known
 * cells clear their peers, hidden singles. *changed says whether the board
 * moved. */
WK_FN int WK(round)(struct WK(board) * b, const struct WK(geo) * g, bool *changed)
{
    const int n = g->n;
    WK(vec) once = { 0 }, twice = { 0 };
    for (int d = 0; d < n; d++) {
        twice |= once & b->cand[d];
        once |= b->cand[d];
    }
    if (WK(any)(g->valid & ~once))
        return WK(contra);
    const WK(vec) single = once & ~twice;
    const bool full = !WK(any)(g->valid & ~single);
    WK(vec) hidden[WK_MAXN], ho = { 0 }, ht = { 0 }, diff = { 0 };
    for (int d = 0; d < n; d++) {
        WK(vec) p = b->cand[d];
        if (!WK(eliminate)(g, &p, p & single))
            return WK(contra);
        if (full)
            continue;
        if (!WK(hidden)(g, p, &hidden[d]))
            return WK(contra);
        ht |= ho & hidden[d];
        ho |= hidden[d];
        diff |= p ^ b->cand[d];
        b->cand[d] = p;
    }
    if (full)
        return WK(solved);
    if (WK(any)(ht))
        return WK(contra);
    for (int d = 0; d < n; d++) {
        const WK(vec) p = b->cand[d] & (hidden[d] | ~ho);
        diff |= p ^ b->cand[d];
        b->cand[d] = p;
    }
    *changed = WK(any)(diff);
    return WK(open);
}

enum { WK(p_contra), WK(p_solved), WK(p_open), WK(p_budget) };

/* Rounds to a fixpoint of the singles, then locked candidates, until neither
 * moves the board. */
WK_FN int WK(propagate)(struct WK(board) * b, const struct WK(geo) * g,
    const struct solve_request *req, struct solve_result *res)
{
    for (;;) {
        res->counters.steps++;
        if (solver_over_budget(req, res))
            return WK(p_budget);
        bool changed = false;
        const int st = WK(round)(b, g, &changed);
        if (st == WK(contra))
            return WK(p_contra);
        if (st == WK(solved))
            return WK(p_solved);
        if (changed)
            continue;
        for (int d = 0; d < g->n; d++)
            changed |= WK(locked)(g, &b->cand[d]);
        if (!changed)
            return WK(p_open);
    }
}

/* Per cell, the number of candidates, as five bit-sliced vectors over the
 * digits (bit i of the count in c[i]). */
WK_FN void WK(counts)(const struct WK(board) * b, const struct WK(geo) * g, WK(vec) c[5])
{
    for (int i = 0; i < 5; i++)
        c[i] = (WK(vec)) { 0 };
    for (int d = 0; d < g->n; d++) {
        WK(vec) carry = b->cand[d];
        for (int i = 0; i < 5 && WK(any)(carry); i++) {
            const WK(vec) sum = c[i] ^ carry;
            carry &= c[i];
            c[i] = sum;
        }
    }
}

/* The branch (fast's rule, on every size): among the open cells with the
 * fewest candidates, the one with the most open cells in its row, column and
 * box (on hard 16x16 puzzles this takes a fifth of the nodes of the first
 * such cell), and its lowest candidate. *cell is -1 when no cell is open. */
WK_FN void WK(choose)(
    const struct WK(board) * b, const struct WK(geo) * g, int *cell, int *digit)
{
    WK(vec) c[5];
    WK(counts)(b, g, c);
    const WK(vec) open = g->valid & (c[1] | c[2] | c[3] | c[4]);
    int row_open[WK_MAXN], col_open[WK_MAXN] = { 0 }, box_open[WK_MAXN] = { 0 };
    for (int r = 0; r < g->n; r++) {
        row_open[r] = __builtin_popcount(open[r]);
        for (uint32_t lane = open[r]; lane; lane &= lane - 1) {
            const int col = __builtin_ctz(lane);
            col_open[col]++;
            box_open[r / g->box_rows * g->box_rows + col / g->box_cols]++;
        }
    }
    *cell = -1;
    *digit = -1;
    for (int k = 2; k <= g->n; k++) {
        WK(vec) eq = open;
        for (int i = 0; i < 5; i++)
            eq &= (k >> i) & 1 ? c[i] : ~c[i];
        if (!WK(any)(eq))
            continue;
        int best = -1, best_score = -1;
        for (int r = 0; r < g->n; r++) {
            for (uint32_t lane = eq[r]; lane; lane &= lane - 1) {
                const int col = __builtin_ctz(lane);
                const int score = row_open[r] + col_open[col]
                    + box_open[r / g->box_rows * g->box_rows + col / g->box_cols];
                if (score > best_score) {
                    best_score = score;
                    best = r * g->n + col;
                }
            }
        }
        const int r = best / g->n, col = best % g->n;
        for (int d = 0; d < g->n; d++) {
            if (b->cand[d][r] & (1u << col)) {
                *cell = best;
                *digit = d;
                return;
            }
        }
    }
}

static WK_TARGET void WK(search)(void *mem, const struct grid *puzzle,
    const struct solve_request *req, struct solve_result *res)
{
    struct WK(priv) *p = mem;
    const struct WK(geo) *g = &p->geo;
    WK(geo_init)(&p->geo, puzzle);
    struct WK(board) cur;
    WK(from_grid)(&cur, g, puzzle);
    int sp = 0;
    for (;;) {
        res->counters.nodes++;
        const int st = WK(propagate)(&cur, g, req, res);
        if (st == WK(p_budget))
            return;
        if (st == WK(p_solved)) {
            bool stop;
            if (solver_wants_grid(req, res)) {
                struct grid sol = *puzzle;
                WK(to_grid)(&cur, g, &sol);
                stop = solver_record_solution(req, res, &sol);
            } else {
                stop = solver_count_solution(req, res);
            }
            if (stop)
                return;
        } else if (st == WK(p_open)) {
            int cell, digit;
            WK(choose)(&cur, g, &cell, &digit);
            if (cell >= 0) {
                const int r = cell / g->n, bit = cell % g->n;
                p->stack[sp] = cur;
                p->stack[sp].cand[digit][r] &= (WK_LANE) ~(1u << bit);
                sp++;
                for (int d = 0; d < g->n; d++) {
                    if (d != digit)
                        cur.cand[d][r] &= (WK_LANE) ~(1u << bit);
                }
                res->counters.guesses++;
                continue;
            }
            res->counters.backtracks++;
        } else {
            res->counters.backtracks++;
        }
        if (sp == 0)
            return;
        cur = p->stack[--sp];
        res->counters.guesses++;
    }
}

#undef WK_WORDS
#undef WK_LANEBITS
#if defined(WK_BR)
#undef WK_ROT
#undef WK_R1
#undef WK_R2
#undef WK_R3
#undef WK_R4
#undef WK_X1
#undef WK_X2
#undef WK_X4
#undef WK_X8
#undef WK_X16
#undef WK_I8
#undef WK_IDX
#undef WK_SHUF
#undef WK_BOX_COLS
#endif
