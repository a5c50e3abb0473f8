/* The `wide` back end's propagation and search, written once for every board
 * size, box shape and instruction-set path.
 *
 * This is a template: solvers/wide.c includes it once per instance, after
 * defining
 *   WK_LANEBYTES  the bytes of one row of a digit's plane (2 for N <= 16,
 *              4 for N <= 32);
 *   WK_ROWS    lanes per chunk vector (a power of two);
 *   WK_RPC     rows per chunk (<= WK_ROWS; a multiple of the box height);
 *   WK_NB      chunks per plane (WK_NB * WK_RPC >= N);
 *   WK_MAXN    the largest N the instance serves (planes per board);
 *   WK_SUFFIX  appended to every name of the instance (s_44_avx2 ...);
 *   WK_BR, WK_BC  optionally, the box height and width, for an instance
 *              made for one box shape: its box rules are then whole-vector
 *              operations (without them, any shape, WK_NB 1, rules lane by
 *              lane);
 *   WK_TARGET  a function attribute such as __attribute__((target("avx2"))),
 *              or nothing for the portable path;
 *   WK_TEST256 optionally, a one-instruction "any bit set" of 256 bits.
 * A chunk is one machine register where the path has it (a vector wider than
 * the registers is kept in memory by GCC and is several times slower), so a
 * 25x25 plane is five 256-bit chunks, one band each, or on AVX-512 two
 * 512-bit ones of three bands (15 of 16 lanes). It uses GNU C vector
 * extensions only, so the same source is plain C for the compiler's baseline
 * (and WebAssembly) and AVX2 or AVX-512 code under a target attribute. The
 * layout and the rules are described in wide.c; the scalar helpers (wide_*)
 * are defined there before the first inclusion. */

#define WK_CAT2(a, b) a##_##b
#define WK_CAT(a, b) WK_CAT2(a, b)
#define WK(name) WK_CAT(name, WK_SUFFIX)
#define WK_FN static inline __attribute__((always_inline)) WK_TARGET
#if WK_LANEBYTES == 2
#define WK_LANE uint16_t
#else
#define WK_LANE uint32_t
#endif
#define WK_VBYTES (WK_ROWS * WK_LANEBYTES)
#define WK_WORDS (WK_VBYTES / 8)
#define WK_LANEBITS (8 * WK_LANEBYTES)
/* The chunk and lane of row r. */
#define WK_CH(r) ((r) / WK_RPC)
#define WK_LN(r) ((r) % WK_RPC)
#define WK_EACH(c) for (int c = 0; c < WK_NB; c++)
/* N, a constant for the instances made for one box shape (loops over the
 * digits unrolled, their planes in registers). */
#if defined(WK_BR)
#define WK_N(g) ((void) (g), WK_BR * WK_BC)
#else
#define WK_N(g) ((g)->n)
#endif

typedef WK_LANE WK(vec) __attribute__((vector_size(WK_VBYTES)));

/* A digit's candidate plane: row r is lane WK_LN(r) of chunk WK_CH(r), bit c
 * of it = "the digit may go in row r, column c". Lanes of rows >= N, and the
 * planes of digits >= N, stay zero. */
typedef struct {
    WK(vec) c[WK_NB];
} WK(plane);

struct WK(board) {
    WK(plane) cand[WK_MAXN];
    WK(plane) done; /* known cells already cleared from their peers */
    uint32_t dirty; /* digits whose plane changed since their hidden singles */
};

/* The puzzle's geometry as masks of this instance's types. */
struct WK(geo) {
    int n, box_rows, box_cols, bands, stacks;
    bool diagonal;
    WK_LANE all; /* the N columns */
    WK_LANE stack[WK_MAXN]; /* the columns of each stack */
    WK_LANE starts; /* the first column of each stack */
    WK(plane) valid; /* every cell of the grid */
    WK(plane) valid_starts; /* starts, in the N rows */
    WK(plane) first_rows; /* all bits of the first row of each band */
    WK(plane) band[WK_MAXN]; /* all bits of the rows of each band */
    WK(plane) diag[2]; /* main diagonal, anti-diagonal */
};

/* The scratch of a search (allocated by wide.c, WIDE_ALIGN-aligned): the
 * geometry, then the stack of ncells + 1 boards (at most one pending branch
 * per cell decided on the current path). */
struct WK(priv) {
    struct WK(geo) geo;
    struct WK(board) kids[2]; /* the lookahead's two sides of a branch */
    struct WK(board) stack[];
};

static size_t WK(wide_need)(int ncells)
{
    return sizeof(struct WK(priv)) + (size_t) (ncells + 1) * sizeof(struct WK(board));
}

/* Whether any lane of x is non-zero: one test instruction where the path has
 * it (WK_TEST256), else an OR of words. */
WK_FN bool WK(any)(WK(vec) x)
{
#if defined(WK_TEST256) && WK_VBYTES == 32
    return WK_TEST256(x);
#else
    uint64_t w[WK_WORDS];
    memcpy(w, &x, sizeof(x));
    uint64_t a = 0;
    for (int i = 0; i < WK_WORDS; i++)
        a |= w[i];
    return a != 0;
#endif
}

WK_FN bool WK(any_plane)(const WK(plane) * x)
{
    WK(vec) a = x->c[0];
    for (int c = 1; c < WK_NB; c++)
        a |= x->c[c];
    return WK(any)(a);
}

WK_FN int WK(count)(const WK(plane) * x)
{
    int n = 0;
    WK_EACH(c)
    {
        uint64_t w[WK_WORDS];
        memcpy(w, &x->c[c], sizeof(w));
        for (int i = 0; i < WK_WORDS; i++)
            n += WIDE_POPCOUNT64(w[i]);
    }
    return n;
}

/* Lanes that are zero, as an all-ones / zero mask. */
WK_FN WK(vec) WK(is_zero)(WK(vec) x)
{
    const WK(vec) zero = { 0 };
    return (WK(vec))(x == zero);
}

/* Merges saturating counters over the lanes of a chunk (o: seen once or
 * more, t: twice or more) into one lane: the chunk is halved down to 64-bit
 * words with whole-register operations, then shifted. */
WK_FN void WK(reduce)(WK(vec) o, WK(vec) t, WK_LANE *once, WK_LANE *twice)
{
    typedef uint64_t q2 __attribute__((vector_size(16)));
#if WK_VBYTES == 128
    typedef uint64_t q4 __attribute__((vector_size(32)));
    typedef WK_LANE h16 __attribute__((vector_size(64)));
    typedef WK_LANE h8 __attribute__((vector_size(32)));
    const h16 olo = __builtin_shufflevector(
                  o, o, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
              ohi = __builtin_shufflevector(
                  o, o, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31);
    const h16 tlo = __builtin_shufflevector(
                  t, t, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
              thi = __builtin_shufflevector(
                  t, t, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31);
    const h16 o1 = olo | ohi, t1 = tlo | thi | (olo & ohi);
    const h8 o8lo = __builtin_shufflevector(o1, o1, 0, 1, 2, 3, 4, 5, 6, 7),
             o8hi = __builtin_shufflevector(o1, o1, 8, 9, 10, 11, 12, 13, 14, 15);
    const q4 o4 = (q4) (o8lo | o8hi),
             t4 = (q4) (__builtin_shufflevector(t1, t1, 0, 1, 2, 3, 4, 5, 6, 7)
                 | __builtin_shufflevector(t1, t1, 8, 9, 10, 11, 12, 13, 14, 15)
                 | (o8lo & o8hi));
#elif WK_VBYTES == 64
    typedef uint64_t q4 __attribute__((vector_size(32)));
    typedef uint64_t q8 __attribute__((vector_size(64)));
    const q8 o8 = (q8) o, t8 = (q8) t;
    const q4 olo = __builtin_shufflevector(o8, o8, 0, 1, 2, 3),
             ohi = __builtin_shufflevector(o8, o8, 4, 5, 6, 7);
    const q4 o4 = olo | ohi,
             t4 = __builtin_shufflevector(t8, t8, 0, 1, 2, 3)
        | __builtin_shufflevector(t8, t8, 4, 5, 6, 7) | (olo & ohi);
#elif WK_VBYTES == 32
    typedef uint64_t q4 __attribute__((vector_size(32)));
    const q4 o4 = (q4) o, t4 = (q4) t;
#endif
#if WK_VBYTES >= 32
    const q2 olo2 = __builtin_shufflevector(o4, o4, 0, 1),
             ohi2 = __builtin_shufflevector(o4, o4, 2, 3);
    const q2 o2 = olo2 | ohi2,
             t2 = __builtin_shufflevector(t4, t4, 0, 1)
        | __builtin_shufflevector(t4, t4, 2, 3) | (olo2 & ohi2);
#else
    const q2 o2 = (q2) o, t2 = (q2) t;
#endif
    uint64_t wo = o2[0] | o2[1], wt = t2[0] | t2[1] | (o2[0] & o2[1]);
    for (int sh = 32; sh >= WK_LANEBITS; sh /= 2) {
        wt |= (wt >> sh) | (wo & (wo >> sh));
        wo |= wo >> sh;
    }
    *once = (WK_LANE) wo;
    *twice = (WK_LANE) wt;
}

/* Saturating counters of the columns over all rows of a plane. */
WK_FN void WK(columns)(const WK(plane) * x, WK_LANE *once, WK_LANE *twice)
{
    WK(vec) o = x->c[0], t = { 0 };
    for (int c = 1; c < WK_NB; c++) {
        t |= o & x->c[c];
        o |= x->c[c];
    }
    WK(reduce)(o, t, once, twice);
}

static void WK(geo_init)(struct WK(geo) * g, const struct grid *puzzle)
{
    memset(g, 0, sizeof(*g));
    g->n = puzzle->n;
    g->box_rows = puzzle->box_rows;
    g->box_cols = puzzle->box_cols;
    g->bands = WK_N(g) / g->box_rows;
    g->stacks = WK_N(g) / g->box_cols;
    g->diagonal = puzzle->variant == GRID_DIAGONAL;
    g->all = (WK_LANE) ((1ull << WK_N(g)) - 1);
    for (int s = 0; s < g->stacks; s++) {
        g->stack[s] = (WK_LANE) (((1ull << g->box_cols) - 1) << (s * g->box_cols));
        g->starts |= (WK_LANE) (1u << (s * g->box_cols));
    }
    for (int r = 0; r < WK_N(g); r++) {
        const int c = WK_CH(r), l = WK_LN(r);
        g->valid.c[c][l] = g->all;
        g->valid_starts.c[c][l] = g->starts;
        g->band[r / g->box_rows].c[c][l] = (WK_LANE) ~(WK_LANE) 0;
        g->diag[0].c[c][l] = (WK_LANE) (1u << r);
        g->diag[1].c[c][l] = (WK_LANE) (1u << (WK_N(g) - 1 - r));
        if (r % g->box_rows == 0)
            g->first_rows.c[c][l] = (WK_LANE) ~(WK_LANE) 0;
    }
}

static void WK(from_grid)(
    struct WK(board) * b, const struct WK(geo) * g, const struct grid *puzzle)
{
    memset(b, 0, sizeof(*b));
    for (int d = 0; d < WK_N(g); d++)
        b->cand[d] = g->valid;
    b->dirty = (uint32_t) ((1ull << WK_N(g)) - 1);
    for (int cell = 0; cell < puzzle->ncells; cell++) {
        const int v = puzzle->cell[cell];
        if (!v)
            continue;
        const int r = cell / WK_N(g), col = cell % WK_N(g);
        for (int d = 0; d < WK_N(g); d++) {
            if (d != v - 1)
                b->cand[d].c[WK_CH(r)][WK_LN(r)] &= (WK_LANE) ~(1u << col);
        }
    }
}

static void WK(to_grid)(
    const struct WK(board) * b, const struct WK(geo) * g, struct grid *out)
{
    for (int d = 0; d < WK_N(g); d++) {
        for (int r = 0; r < WK_N(g); r++) {
            uint32_t lane = b->cand[d].c[WK_CH(r)][WK_LN(r)];
            for (; lane; lane &= lane - 1)
                out->cell[r * WK_N(g) + __builtin_ctz(lane)] = (uint8_t) (d + 1);
        }
    }
}

/* The diagonals: known cells of a plane clear the rest of their diagonal
 * (false when two share one); or the hidden singles on them (false when a
 * diagonal has no place left). */
WK_FN bool WK(diag_eliminate)(
    const struct WK(geo) * g, WK(plane) * p, const WK(plane) * k)
{
    for (int i = 0; i < 2; i++) {
        WK(plane) on;
        WK_EACH(c) on.c[c] = k->c[c] & g->diag[i].c[c];
        const int known = WK(count)(&on);
        if (known > 1)
            return false;
        if (known)
            WK_EACH(c) p->c[c] &= k->c[c] | ~g->diag[i].c[c];
    }
    return true;
}

WK_FN bool WK(diag_hidden)(const struct WK(geo) * g, const WK(plane) * p, WK(plane) * h)
{
    for (int i = 0; i < 2; i++) {
        WK(plane) on;
        WK_EACH(c) on.c[c] = p->c[c] & g->diag[i].c[c];
        const int places = WK(count)(&on);
        if (!places)
            return false;
        if (places == 1)
            WK_EACH(c) h->c[c] |= on.c[c];
    }
    return true;
}

#if defined(WK_BR)
/* With the box shape known when compiling, the rules below are all
 * whole-vector operations: a band's rows are WK_BR consecutive lanes of a
 * chunk, folded by constant lane rotations inside the band; the columns are
 * folded by halving; a box's columns are a group of WK_BC bits of a lane,
 * folded by shifts. */
#define WK_ROT(i, j)                                                                     \
    ((i) - (i) % WK_BR + ((i) % WK_BR + (j)) % WK_BR < WK_ROWS                           \
            ? (i) - (i) % WK_BR + ((i) % WK_BR + (j)) % WK_BR                            \
            : (i))
#define WK_R1(i) WK_ROT(i, 1)
#define WK_R2(i) WK_ROT(i, 2)
#define WK_R3(i) WK_ROT(i, 3)
#define WK_R4(i) WK_ROT(i, 4)
#define WK_I8(F, b)                                                                      \
    F(b), F(b + 1), F(b + 2), F(b + 3), F(b + 4), F(b + 5), F(b + 6), F(b + 7)
#if WK_ROWS == 8
#define WK_IDX(F) WK_I8(F, 0)
#elif WK_ROWS == 16
#define WK_IDX(F) WK_I8(F, 0), WK_I8(F, 8)
#else
#define WK_IDX(F) WK_I8(F, 0), WK_I8(F, 8), WK_I8(F, 16), WK_I8(F, 24)
#endif
#define WK_SHUF(x, F) __builtin_shufflevector(x, x, WK_IDX(F))

/* Saturating counters over the lanes of each band (every lane gets its
 * band's): *once, columns with a place in one row or more; *twice, two or
 * more. */
WK_FN void WK(band_fold)(WK(vec) x, WK(vec) * once, WK(vec) * twice)
{
    WK(vec) o = x, t = { 0 }, y;
#define WK_BAND_STEP(F)                                                                  \
    y = WK_SHUF(x, F);                                                                   \
    t |= o & y;                                                                          \
    o |= y;
#if WK_BR > 1
    WK_BAND_STEP(WK_R1)
#endif
#if WK_BR > 2
    WK_BAND_STEP(WK_R2)
#endif
#if WK_BR > 3
    WK_BAND_STEP(WK_R3)
#endif
#if WK_BR > 4
    WK_BAND_STEP(WK_R4)
#endif
#if WK_BR > 5
#error "WK_BR must be 1 to 5"
#endif
#undef WK_BAND_STEP
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

/* Per lane and box (the bit of the stack's first column): whether x has a
 * column of the box. */
WK_FN WK(vec) WK(group_any)(const struct WK(geo) * g, WK(vec) x)
{
    WK(vec) a = x;
    for (int j = 1; j < WK_BC; j++)
        a |= x >> j;
    return a & g->starts;
}

/* The same as counters: *once, one column or more; *twice, two or more. */
WK_FN void WK(group_fold)(
    const struct WK(geo) * g, WK(vec) x, WK(vec) * once, WK(vec) * twice)
{
    WK(vec) o = x & g->starts, t = { 0 };
    for (int j = 1; j < WK_BC; j++) {
        const WK(vec) y = (x >> j) & g->starts;
        t |= o & y;
        o |= y;
    }
    *once = o;
    *twice = t;
}

/* Box bits (first columns) spread to all columns of their boxes. */
WK_FN WK(vec) WK(spread)(WK(vec) m)
{
    return m * (WK_LANE) ((1u << WK_BC) - 1);
}

/* The known cells k (one candidate) of a digit clear it from their row,
 * column, box and diagonals. Returns false when two of them share a unit. */
WK_FN bool WK(eliminate)(const struct WK(geo) * g, WK(plane) * p, const WK(plane) * k)
{
    WK(vec) bad = { 0 }, o = { 0 }, t = { 0 };
    WK_EACH(c)
    {
        const WK(vec) kc = k->c[c];
        bad |= kc & (kc - 1);
        p->c[c] &= kc | WK(is_zero)(kc);
        t |= o & kc;
        o |= kc;
        WK(vec) bo, bt;
        WK(group_fold)(g, WK(band_or)(kc), &bo, &bt);
        bad |= bt;
        p->c[c] &= kc | ~WK(spread)(bo);
    }
    WK_LANE co, ct;
    WK(reduce)(o, t, &co, &ct);
    if (ct || WK(any)(bad))
        return false;
    WK_EACH(c) p->c[c] &= k->c[c] | (WK_LANE) ~co;
    return !g->diagonal || WK(diag_eliminate)(g, p, k);
}

/* The hidden singles of a digit's plane p: the cells where it is the only
 * place of the digit in a row, column, box or diagonal, in *h. Returns false
 * when the digit has no place left in some unit. */
WK_FN bool WK(hidden)(const struct WK(geo) * g, const WK(plane) * p, WK(plane) * h)
{
    WK(vec) bad = { 0 }, o = { 0 }, t = { 0 };
    WK_EACH(c)
    {
        const WK(vec) pc = p->c[c];
        bad |= WK(is_zero)(pc) & g->valid.c[c];
        h->c[c] = pc & WK(is_zero)(pc & (pc - 1));
        t |= o & pc;
        o |= pc;
        WK(vec) bo, bt, go, gt;
        WK(band_fold)(pc, &bo, &bt);
        WK(group_fold)(g, bo, &go, &gt);
        bad |= g->valid_starts.c[c] & ~go;
        h->c[c] |= pc & WK(spread)(go & ~gt & ~WK(group_any)(g, bt));
    }
    WK_LANE co, ct;
    WK(reduce)(o, t, &co, &ct);
    if ((g->all & ~co) || WK(any)(bad))
        return false;
    WK_EACH(c) h->c[c] |= p->c[c] & (WK_LANE) (co & ~ct);
    return !g->diagonal || WK(diag_hidden)(g, p, h);
}

/* Locked candidates of a digit: a box whose places lie in one row (or
 * column) clears the digit from the rest of that row (column) (pointing); a
 * row (or column) whose places lie in one box clears it from the rest of the
 * box (claiming). Returns whether p changed. */
WK_FN bool WK(locked)(const struct WK(geo) * g, WK(plane) * p)
{
    const WK(plane) before = *p;
    WK(vec) pointc[WK_NB], bands[WK_NB], po = { 0 }, fo = { 0 }, ft = { 0 };
    WK_EACH(c)
    {
        const WK(vec) x = before.c[c];
        /* rows: a, per lane, the boxes where the row has places */
        const WK(vec) a = WK(group_any)(g, x);
        WK(vec) o, t;
        WK(band_fold)(a, &o, &t);
        const WK(vec) point = a & o & ~t; /* boxes whose places lie in this row */
        p->c[c] &= WK(spread)(point) | WK(is_zero)(point);
        const WK(vec) claim = a & WK(is_zero)(a & (a - 1)); /* the row's one box */
        p->c[c] &= ~WK(spread)(WK(band_or)(claim) & ~claim);
        /* columns: bands[c], per band, the columns with places */
        bands[c] = WK(band_or)(x);
        WK(group_fold)(g, bands[c], &o, &t);
        pointc[c] = bands[c] & WK(spread)(o & ~t);
        po |= pointc[c];
        const WK(vec) first = bands[c] & g->first_rows.c[c];
        ft |= fo & first;
        fo |= first;
    }
    WK_LANE pointed, dummy, once, twice;
    WK(reduce)(po, po, &pointed, &dummy);
    WK(reduce)(fo, ft, &once, &twice);
    const WK_LANE only = once & ~twice; /* columns whose places lie in one band */
    WK(vec) diff = { 0 };
    WK_EACH(c)
    {
        p->c[c] &= pointc[c] | (WK_LANE) ~pointed;
        const WK(vec) claimc = bands[c] & only;
        p->c[c] &= claimc | ~WK(spread)(WK(group_any)(g, claimc));
        diff |= p->c[c] ^ before.c[c];
    }
    return WK(any)(diff);
}

/* Naked pairs: two cells of a unit whose only candidates are the same two
 * digits d and e clear d and e from the rest of the unit. Returns whether
 * the board changed. */
WK_FN bool WK(pairs)(struct WK(board) * b, const struct WK(geo) * g)
{
    WK(plane) bi[WK_MAXN];
    {
        WK(plane) o = { { { 0 } } }, t = { { { 0 } } }, th = { { { 0 } } };
        for (int d = 0; d < WK_N(g); d++) {
            WK_EACH(c)
            {
                th.c[c] |= t.c[c] & b->cand[d].c[c];
                t.c[c] |= o.c[c] & b->cand[d].c[c];
                o.c[c] |= b->cand[d].c[c];
            }
        }
        for (int d = 0; d < WK_N(g); d++)
            WK_EACH(c) bi[d].c[c] = b->cand[d].c[c] & t.c[c] & ~th.c[c];
    }
    bool changed = false;
    for (int d = 0; d < WK_N(g); d++) {
        if (!WK(any_plane)(&bi[d]))
            continue;
        for (int e = d + 1; e < WK_N(g); e++) {
            WK(plane) x;
            WK(vec) a = { 0 };
            WK_EACH(c)
            {
                x.c[c] = bi[d].c[c] & bi[e].c[c];
                a |= x.c[c];
            }
            if (!WK(any)(a))
                continue;
            /* the units holding two such cells lose d and e elsewhere */
            WK(vec) o = { 0 }, t = { 0 };
            WK_EACH(c)
            {
                t |= o & x.c[c];
                o |= x.c[c];
            }
            WK_LANE co, ct;
            WK(reduce)(o, t, &co, &ct);
            WK(plane) clear;
            WK_EACH(c)
            {
                const WK(vec) xc = x.c[c];
                const WK(vec) rows = ~WK(is_zero)(xc & (xc - 1));
                WK(vec) bo, bt, go, gt;
                WK(band_fold)(xc, &bo, &bt);
                WK(group_fold)(g, bo, &go, &gt);
                const WK(vec) boxes = WK(spread)(gt | WK(group_any)(g, bt));
                clear.c[c] = (rows | ct | boxes) & ~xc;
            }
            if (!WK(any_plane)(&clear))
                continue;
            WK(vec) diff = { 0 };
            WK_EACH(c)
            {
                const WK(vec) pd = b->cand[d].c[c] & ~clear.c[c],
                              pe = b->cand[e].c[c] & ~clear.c[c];
                diff |= (pd ^ b->cand[d].c[c]) | (pe ^ b->cand[e].c[c]);
                b->cand[d].c[c] = pd;
                b->cand[e].c[c] = pe;
            }
            if (WK(any)(diff)) {
                b->dirty |= 1u << d | 1u << e;
                changed = true;
            }
        }
    }
    return changed;
}
#else /* box shape known at run time only: one chunk, rules lane by lane */
#if WK_NB != 1
#error "an instance without WK_BR must have one chunk"
#endif

WK_FN bool WK(eliminate)(const struct WK(geo) * g, WK(plane) * pp, const WK(plane) * kp)
{
    WK(vec) p = pp->c[0];
    const WK(vec) k = kp->c[0];
    if (WK(any)(k & (k - 1)))
        return false;
    p &= k | WK(is_zero)(k);
    WK_LANE ko, kt;
    WK(columns)(kp, &ko, &kt);
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
    pp->c[0] = p;
    return !g->diagonal || WK(diag_eliminate)(g, pp, kp);
}

WK_FN bool WK(hidden)(const struct WK(geo) * g, const WK(plane) * pp, WK(plane) * h)
{
    const WK(vec) p = pp->c[0];
    if (WK(any)(WK(is_zero)(p) & g->valid.c[0]))
        return false;
    WK(vec) single = p & WK(is_zero)(p & (p - 1));
    WK_LANE po, pt;
    WK(columns)(pp, &po, &pt);
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
    h->c[0] = single;
    return !g->diagonal || WK(diag_hidden)(g, pp, h);
}

WK_FN bool WK(locked)(const struct WK(geo) * g, WK(plane) * pp)
{
    WK(vec) p = pp->c[0];
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
                p &= g->band[band].c[0] | (WK_LANE) ~x;
            const WK_LANE claim = only & st;
            if (claim && !(claim & (claim - 1))) {
                for (int r = r0; r < r0 + g->box_rows; r++)
                    p[r] &= (WK_LANE) ~(st & ~claim);
            }
        }
    }
    pp->c[0] = p;
    return WK(any)(p ^ before);
}
#endif /* WK_BR */

enum { WK(contra), WK(solved), WK(open) };

/* One data-parallel round over every digit and cell: naked singles, known
 * cells clear their peers, hidden singles. Only what may have moved is
 * redone: the known cells not yet in b->done clear their peers, and only the
 * digits in b->dirty (changed since their last hidden singles) are searched
 * for hidden singles, since a plane that did not change has none left to
 * apply and no contradiction of its own. *changed says whether the board
 * moved. */
WK_FN int WK(round)(struct WK(board) * b, const struct WK(geo) * g, bool *changed)
{
    const int n = WK_N(g);
    WK(plane) once = { { { 0 } } }, twice = { { { 0 } } }, fresh, gap;
    for (int d = 0; d < n; d++) {
        WK_EACH(c)
        {
            twice.c[c] |= once.c[c] & b->cand[d].c[c];
            once.c[c] |= b->cand[d].c[c];
        }
    }
    WK(vec) open = { 0 }, any_fresh = { 0 };
    WK_EACH(c)
    {
        gap.c[c] = g->valid.c[c] & ~once.c[c];
        fresh.c[c] = once.c[c] & ~twice.c[c] & ~b->done.c[c];
        open |= g->valid.c[c] & twice.c[c];
        any_fresh |= fresh.c[c];
    }
    if (WK(any_plane)(&gap))
        return WK(contra);
    const bool fresh_any = WK(any)(any_fresh);
    const bool full = !WK(any)(open);
    WK(plane) hidden[WK_MAXN], ho = { { { 0 } } }, ht = { { { 0 } } };
    bool moved = false, found = false;
    uint32_t dirty = b->dirty;
    for (int d = 0; fresh_any && d < n; d++) {
        WK(plane) k;
        WK(vec) a = { 0 };
        WK_EACH(c)
        {
            k.c[c] = b->cand[d].c[c] & fresh.c[c];
            a |= k.c[c];
        }
        if (!WK(any)(a))
            continue;
        WK(plane) p = b->cand[d];
        if (!WK(eliminate)(g, &p, &k))
            return WK(contra);
        WK(vec) diff = { 0 };
        WK_EACH(c) diff |= p.c[c] ^ b->cand[d].c[c];
        const uint32_t moved_d = WK(any)(diff);
        dirty |= moved_d << d;
        moved |= moved_d;
        b->cand[d] = p;
    }
    if (full)
        return WK(solved);
    for (uint32_t rest = dirty; rest; rest &= rest - 1) {
        const int d = __builtin_ctz(rest);
        if (!WK(hidden)(g, &b->cand[d], &hidden[d]))
            return WK(contra);
        WK(vec) h = { 0 };
        WK_EACH(c)
        {
            ht.c[c] |= ho.c[c] & hidden[d].c[c];
            ho.c[c] |= hidden[d].c[c];
            h |= hidden[d].c[c];
        }
        found |= WK(any)(h);
    }
    WK_EACH(c) b->done.c[c] |= fresh.c[c];
    /* every dirty digit had its hidden singles found */
    b->dirty = 0;
    if (found) {
        if (WK(any_plane)(&ht))
            return WK(contra);
        const WK(plane) none = { { { 0 } } };
        for (int d = 0; d < n; d++) {
            /* the cells of hidden singles keep their own digit only */
            const WK(plane) *own = dirty >> d & 1 ? &hidden[d] : &none;
            WK(vec) diff = { 0 };
            WK_EACH(c)
            {
                const WK(vec) p = b->cand[d].c[c] & (own->c[c] | ~ho.c[c]);
                diff |= p ^ b->cand[d].c[c];
                b->cand[d].c[c] = p;
            }
            const uint32_t moved_d = WK(any)(diff);
            b->dirty |= moved_d << d;
            moved |= moved_d;
        }
    }
    *changed = moved;
    return WK(open);
}

enum { WK(p_contra), WK(p_solved), WK(p_open), WK(p_budget) };

/* Rounds to a fixpoint of the singles, then, when strong, locked candidates
 * and (for the box shapes known when compiling) naked pairs, until none moves
 * the board. */
WK_FN int WK(propagate)(struct WK(board) * b, const struct WK(geo) * g,
    const struct solve_request *req, struct solve_result *res, bool strong)
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
        if (!strong)
            return WK(p_open);
        for (int d = 0; d < WK_N(g); d++)
            if (WK(locked)(g, &b->cand[d])) {
                b->dirty |= 1u << d;
                changed = true;
            }
#if defined(WK_BR)
        if (!changed)
            changed = WK(pairs)(b, g);
#endif
        if (!changed)
            return WK(p_open);
    }
}

/* Per cell, the number of candidates, as five bit-sliced planes over the
 * digits (bit i of the count in cnt[i]). */
WK_FN void WK(counts)(
    const struct WK(board) * b, const struct WK(geo) * g, WK(plane) cnt[5])
{
    memset(cnt, 0, 5 * sizeof(cnt[0]));
    for (int d = 0; d < WK_N(g); d++) {
        WK_EACH(c)
        {
            WK(vec) carry = b->cand[d].c[c];
            for (int i = 0; i < 5 && WK(any)(carry); i++) {
                const WK(vec) sum = cnt[i].c[c] ^ carry;
                carry &= cnt[i].c[c];
                cnt[i].c[c] = sum;
            }
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
    WK(plane) cnt[5], open;
    WK(counts)(b, g, cnt);
    WK_EACH(c)
    open.c[c] = g->valid.c[c] & (cnt[1].c[c] | cnt[2].c[c] | cnt[3].c[c] | cnt[4].c[c]);
    int row_open[WK_MAXN], col_open[WK_MAXN] = { 0 }, box_open[WK_MAXN] = { 0 };
    for (int r = 0; r < WK_N(g); r++) {
        const uint32_t lane = open.c[WK_CH(r)][WK_LN(r)];
        row_open[r] = __builtin_popcount(lane);
        for (uint32_t rest = lane; rest; rest &= rest - 1) {
            const int col = __builtin_ctz(rest);
            col_open[col]++;
            box_open[r / g->box_rows * g->box_rows + col / g->box_cols]++;
        }
    }
    *cell = -1;
    *digit = -1;
    for (int k = 2; k <= WK_N(g); k++) {
        WK(plane) eq = open;
        for (int i = 0; i < 5; i++)
            WK_EACH(c) eq.c[c] &= (k >> i) & 1 ? cnt[i].c[c] : ~cnt[i].c[c];
        if (!WK(any_plane)(&eq))
            continue;
        int best = -1, best_score = -1;
        for (int r = 0; r < WK_N(g); r++) {
            for (uint32_t lane = eq.c[WK_CH(r)][WK_LN(r)]; lane; lane &= lane - 1) {
                const int col = __builtin_ctz(lane);
                const int score = row_open[r] + col_open[col]
                    + box_open[r / g->box_rows * g->box_rows + col / g->box_cols];
                if (score > best_score) {
                    best_score = score;
                    best = r * WK_N(g) + col;
                }
            }
        }
        const int r = best / WK_N(g), col = best % WK_N(g);
        for (int d = 0; d < WK_N(g); d++) {
            if (b->cand[d].c[WK_CH(r)][WK_LN(r)] & (1u << col)) {
                *cell = best;
                *digit = d;
                return;
            }
        }
    }
}

/* The number of candidates left on a board (over every digit and cell). */
WK_FN int WK(total)(const struct WK(board) * b, const struct WK(geo) * g)
{
    int n = 0;
    for (int d = 0; d < WK_N(g); d++)
        n += WK(count)(&b->cand[d]);
    return n;
}

/* b with cell (row r, column col) set to digit d. */
WK_FN void WK(assign)(
    struct WK(board) * b, const struct WK(geo) * g, int r, int col, int d)
{
    const WK_LANE bit = (WK_LANE) (1u << col);
    for (int e = 0; e < WK_N(g); e++) {
        if (e != d && (b->cand[e].c[WK_CH(r)][WK_LN(r)] & bit)) {
            b->cand[e].c[WK_CH(r)][WK_LN(r)] &= (WK_LANE) ~bit;
            b->dirty |= 1u << e;
        }
    }
}

enum { WK(l_contra), WK(l_forced), WK(l_branch), WK(l_budget) };

#ifndef WK_PROBES
/* At most this many bivalue cells are tried per lookahead: on hard 25x25
 * puzzles 64 takes as few nodes as trying them all, 16 twice as many. */
#define WK_PROBES 64
#endif

/* Lookahead at a fixpoint (failed literals, as in lookahead SAT solvers):
 * each bivalue cell (the first WK_PROBES in row order) is set both ways on a
 * copy, propagated with singles only. A value whose copy fails is ruled out
 * in b; a candidate that both copies remove is in no solution either and is
 * ruled out too (l_contra: both values of a cell fail). The branch is the cell whose two
 * sides remove the most candidates (the product, plus their sum, of the counts each side
 * removes), the side that solved the board if one did; without bivalue
 * cells, choose's cell (l_branch). Only when values were ruled out and no
 * cell was left to branch on must b be propagated again (l_forced). */
static WK_TARGET int WK(lookahead)(struct WK(board) * b, const struct WK(geo) * g,
    const struct solve_request *req, struct solve_result *res, int *cell, int *digit,
    struct WK(board) kids[2], bool *kids_ready)
{
    *kids_ready = false;
    *cell = *digit = -1;
    WK(plane) cnt[5], bi;
    WK(counts)(b, g, cnt);
    WK_EACH(c)
    bi.c[c] = g->valid.c[c] & cnt[1].c[c]
        & ~(cnt[0].c[c] | cnt[2].c[c] | cnt[3].c[c] | cnt[4].c[c]);
    if (!WK(any_plane)(&bi)) {
        WK(choose)(b, g, cell, digit);
        return WK(l_branch);
    }
    const int limit = WK_PROBES;
    const int before = WK(total)(b, g);
    /* the copies of the cell being probed, and of the best one so far */
    struct WK(board) copies[4], *tmp = copies, *best_tmp = copies + 2;
    bool forced = false, stale = false;
    long best = -1;
    int tried = 0;
    for (int r = 0; r < WK_N(g) && tried < limit; r++) {
        for (uint32_t lane = bi.c[WK_CH(r)][WK_LN(r)]; lane && tried < limit;
             lane &= lane - 1) {
            const int col = __builtin_ctz(lane);
            int dv[2], nd = 0;
            for (int d = 0; d < WK_N(g) && nd < 2; d++) {
                if (b->cand[d].c[WK_CH(r)][WK_LN(r)] & (1u << col))
                    dv[nd++] = d;
            }
            if (nd < 2)
                continue;
            tried++;
            int left[2];
            bool fail[2];
            for (int side = 0; side < 2; side++) {
                tmp[side] = *b;
                WK(assign)(&tmp[side], g, r, col, dv[side]);
                const int st = WK(propagate)(&tmp[side], g, req, res, false);
                if (st == WK(p_budget))
                    return WK(l_budget);
                if (st == WK(p_solved)) {
                    if (forced)
                        return WK(l_forced);
                    *cell = r * WK_N(g) + col;
                    *digit = dv[side];
                    return WK(l_branch);
                }
                fail[side] = st == WK(p_contra);
                left[side] = fail[side] ? 0 : WK(total)(&tmp[side], g);
            }
            if (fail[0] && fail[1])
                return WK(l_contra);
            if (fail[0] || fail[1]) {
                /* the other side is b with that value, propagated */
                *b = tmp[fail[0] ? 1 : 0];
                forced = stale = true;
                continue;
            }
            {
                bool met = false;
                for (int d = 0; d < WK_N(g); d++) {
                    WK(vec) diff = { 0 };
                    WK_EACH(c)
                    {
                        const WK(vec) k = b->cand[d].c[c]
                            & (tmp[0].cand[d].c[c] | tmp[1].cand[d].c[c]);
                        diff |= k ^ b->cand[d].c[c];
                        b->cand[d].c[c] = k;
                    }
                    if (WK(any)(diff)) {
                        b->dirty |= 1u << d;
                        met = true;
                    }
                }
                if (met) {
                    forced = stale = true;
                    continue;
                }
            }
            const long ra = before - left[0], rb = before - left[1];
            const long score = ra * rb + ra + rb;
            if (score > best) {
                best = score;
                *cell = r * WK_N(g) + col;
                *digit = dv[0];
                struct WK(board) *t = tmp;
                tmp = best_tmp;
                best_tmp = t;
                stale = false;
            }
        }
    }
    if (best >= 0 && !stale) {
        /* the two sides of the branch, already propagated (singles) */
        kids[0] = best_tmp[0];
        kids[1] = best_tmp[1];
        *kids_ready = true;
    }
    /* after values ruled out, a new sweep from the propagated board would
     * mostly repeat this one: the best cell probed is branched on at once
     * (a fifth less time on 16x16 and 25x25 puzzles) */
    return best >= 0 || !forced ? WK(l_branch) : WK(l_forced);
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
    bool again = false;
    for (;;) {
        if (!again)
            res->counters.nodes++;
        again = false;
        const int st = WK(propagate)(&cur, g, req, res, true);
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
            bool ready;
            const int la
                = WK(lookahead)(&cur, g, req, res, &cell, &digit, p->kids, &ready);
            if (la == WK(l_budget))
                return;
            if (la == WK(l_forced)) {
                again = true;
                continue;
            }
            if (la == WK(l_branch) && cell >= 0) {
                const int r = cell / WK_N(g), ch = WK_CH(r), ln = WK_LN(r);
                const WK_LANE keep = (WK_LANE) ~(1u << (cell % WK_N(g)));
                if (ready) {
                    p->stack[sp++] = p->kids[1];
                    cur = p->kids[0];
                    res->counters.guesses++;
                    continue;
                }
                p->stack[sp] = cur;
                p->stack[sp].cand[digit].c[ch][ln] &= keep;
                p->stack[sp].dirty |= 1u << digit;
                sp++;
                WK(assign)(&cur, g, r, cell % WK_N(g), digit);
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

#undef WK_LANE
#undef WK_VBYTES
#undef WK_WORDS
#undef WK_LANEBITS
#undef WK_CH
#undef WK_LN
#undef WK_EACH
#undef WK_N
#if defined(WK_BR)
#undef WK_ROT
#undef WK_R1
#undef WK_R2
#undef WK_R3
#undef WK_R4
#undef WK_I8
#undef WK_IDX
#undef WK_SHUF
#endif
/* The instance's parameters end here, so that the next one defines its own
 * (WK_TARGET and WK_TEST256 stay: they serve every instance of a path). */
#undef WK_LANEBYTES
#undef WK_ROWS
#undef WK_RPC
#undef WK_NB
#undef WK_MAXN
#undef WK_SUFFIX
#undef WK_BR
#undef WK_BC
