/* The `fast` back end's propagation and search, written once for any vector
 * width.
 *
 * This is a template: solvers/fast.c includes it once per instruction-set
 * path, after defining
 *   FK_VL      lanes of 32 bits per vector: 4 (128-bit), 8 (256) or 16 (512);
 *   FK_SUFFIX  appended to every name of the instance (portable, avx2 ...);
 *   FK_TARGET  a function attribute such as __attribute__((target("avx2"))),
 *              or nothing for the portable path.
 *   FK_POPCOUNT  a 32-bit bit count;
 * and optionally
 *   FK_TEST    a one-instruction "any lane set" test (x86 paths);
 *   FK_OPAQUE  keep the spreading products as multiplications (GCC, x86);
 *   FK_X86_BYTES  build and read boards with AVX2 byte compares and shuffles
 *              (x86 paths).
 * Otherwise it uses GNU C vector extensions only, so the same source is plain
 * C for the compiler's baseline and AVX2 or AVX-512 code under a target
 * attribute. The board layout and the rules are described in fast.c; the
 * scalar helpers (fast_*) are defined there before the first inclusion. */

/* Marks for a model of another core (scripts/mca-fast.sh): compiled with
 * SUDOLAB_MCA, the assembly brackets a propagation round for llvm-mca, one
 * region per path; otherwise they are nothing. */
#ifndef FK_MCA
#ifdef SUDOLAB_MCA
#define FK_MCA_STR2(x) #x
#define FK_MCA_STR(x) FK_MCA_STR2(x)
#define FK_MCA(edge, region)                                                             \
    __asm__ volatile("# LLVM-MCA-" edge " " region "_" FK_MCA_STR(FK_SUFFIX))
#else
#define FK_MCA(edge, region) ((void) 0)
#endif
#endif

#define FK_CAT2(a, b) a##_##b
#define FK_CAT(a, b) FK_CAT2(a, b)
#define FK(name) FK_CAT(name, FK_SUFFIX)
/* Digit 8's three band words go into pad lanes, so that every vector is
 * full (see FK(load)): FK_PACKED 1, at 16 lanes, packs the board into two
 * vectors, digit 8 in the pad lanes 3, 7 and 11 of the first; FK_PACKED 2, at
 * 8 lanes, into four (not five), digit 8 in lanes 3 and 7 of the first and
 * lane 3 of the second: its band rotations then cross the two vectors
 * (FK(rot1)), which costs less than a fifth vector through every rule. */
#if FK_VL == 16
#define FK_PACKED 1
#define FK_NV 2
#elif FK_VL == 8
#define FK_PACKED 2
#define FK_NV 4
#else
#define FK_PACKED 0
#define FK_NV 9
#endif
#define FK_FN static inline __attribute__((always_inline)) FK_TARGET

typedef uint32_t FK(vec) __attribute__((vector_size(FK_VL * 4)));
typedef uint64_t FK(vec2) __attribute__((vector_size(16)));

/* Constants repeated over the 4-lane groups of a vector; PAD0 and PADLAST
 * mark the pad lanes of the other vectors and of the last one (whose groups
 * past the first hold no digit when a vector holds two). */
/* clang-format off */
#define FK_A FAST_ALL
#if FK_VL == 4
#define FK_REP4(a, b, c, d) { a, b, c, d }
#define FK_PAD0 FK_REP4(0, 0, 0, FK_A)
#define FK_PADLAST { 0, 0, 0, FK_A }
#elif FK_VL == 8
#define FK_REP4(a, b, c, d) { a, b, c, d, a, b, c, d }
#define FK_PAD0 { 0 }
#define FK_PAD1 { 0, 0, 0, 0, 0, 0, 0, FK_A }
#define FK_PADLAST FK_REP4(0, 0, 0, FK_A)
#elif FK_VL == 16
#define FK_REP4(a, b, c, d) { a, b, c, d, a, b, c, d, a, b, c, d, a, b, c, d }
#define FK_PAD0 { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, FK_A }
#define FK_PADLAST FK_REP4(0, 0, 0, FK_A)
#else
#error "FK_VL must be 4, 8 or 16"
#endif
/* clang-format on */

/* Band rotations inside every 4-lane group: lane b takes band b+1 (or b+2)
 * mod 3; the pad lane stays in place (packed: digit 8's lanes 3, 7, 11
 * rotate among themselves). */
#if FK_VL == 4
#define FK_BAND1(x) __builtin_shufflevector(x, x, 1, 2, 0, 3)
#define FK_BAND2(x) __builtin_shufflevector(x, x, 2, 0, 1, 3)
#elif FK_VL == 8
#define FK_BAND1(x) __builtin_shufflevector(x, x, 1, 2, 0, 3, 5, 6, 4, 7)
#define FK_BAND2(x) __builtin_shufflevector(x, x, 2, 0, 1, 3, 6, 4, 5, 7)
#else
#define FK_BAND1(x)                                                                      \
    __builtin_shufflevector(x, x, 1, 2, 0, 7, 5, 6, 4, 11, 9, 10, 8, 3, 13, 14, 12, 15)
#define FK_BAND2(x)                                                                      \
    __builtin_shufflevector(x, x, 2, 0, 1, 11, 6, 4, 5, 3, 10, 8, 9, 7, 14, 12, 13, 15)
#endif

/* The pad lanes of vector i (those that hold no band word): set in the
 * checks that look for an empty lane. Pad lanes themselves always hold 0. */
FK_FN FK(vec) FK(pad)(int i)
{
    const FK(vec) first = FK_PAD0, last = FK_PADLAST;
#if FK_PACKED == 2
    const FK(vec) second = FK_PAD1;
    if (i == 1)
        return second;
#endif
    return i == 0 && FK_NV > 1 ? first : last;
}

/* Band rotations of a whole board's worth of vectors (out must not be x):
 * lane b of every digit takes band b+1 (FK(rot1)) or b+2 (FK(rot2)) mod 3. */
FK_FN void FK(rot1)(FK(vec) out[FK_NV], const FK(vec) x[FK_NV])
{
    int i = 0;
#if FK_PACKED == 2
    /* digit 8: bands 0, 1 in lanes 3, 7 of x[0], band 2 in lane 3 of x[1] */
    out[0] = __builtin_shufflevector(x[0], x[1], 1, 2, 0, 7, 5, 6, 4, 11);
    out[1] = __builtin_shufflevector(x[1], x[0], 1, 2, 0, 11, 5, 6, 4, 7);
    i = 2;
#endif
    for (; i < FK_NV; i++)
        out[i] = FK_BAND1(x[i]);
}

FK_FN void FK(rot2)(FK(vec) out[FK_NV], const FK(vec) x[FK_NV])
{
    int i = 0;
#if FK_PACKED == 2
    out[0] = __builtin_shufflevector(x[0], x[1], 2, 0, 1, 11, 6, 4, 5, 3);
    out[1] = __builtin_shufflevector(x[1], x[0], 2, 0, 1, 15, 6, 4, 5, 7);
    i = 2;
#endif
    for (; i < FK_NV; i++)
        out[i] = FK_BAND2(x[i]);
}

#if FK_PACKED
/* Digit 8's band words moved to lanes 0, 1, 2, the rest zero: added to the
 * per-band totals over the digits, which the group folds leave in lanes
 * 0..2. */
FK_FN FK(vec) FK(digit8)(const FK(vec) x[FK_NV])
{
    const FK(vec) zero = { 0 };
#if FK_PACKED == 1
    return __builtin_shufflevector(
        x[0], zero, 3, 7, 11, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16);
#else
    const FK(vec) t = __builtin_shufflevector(x[0], x[1], 3, 7, 11, 0, 0, 0, 0, 0);
    return __builtin_shufflevector(t, zero, 0, 1, 2, 8, 8, 8, 8, 8);
#endif
}
#endif

/* A per-band total (lanes 0..2 of every group) as vector i needs it: copied
 * to the lanes of digit 8 that vector i holds. */
FK_FN FK(vec) FK(to_digit8)(FK(vec) x, int i)
{
#if FK_PACKED == 1
    (void) i;
    return __builtin_shufflevector(
        x, x, 0, 1, 2, 0, 4, 5, 6, 1, 8, 9, 10, 2, 12, 13, 14, 15);
#elif FK_PACKED == 2
    if (i == 0)
        return __builtin_shufflevector(x, x, 0, 1, 2, 0, 4, 5, 6, 1);
    if (i == 1)
        return __builtin_shufflevector(x, x, 0, 1, 2, 2, 4, 5, 6, 7);
    return x;
#else
    (void) i;
    return x;
#endif
}

/* The OR of all groups of a vector, in every group. */
FK_FN FK(vec) FK(fold_or)(FK(vec) x)
{
#if FK_VL == 16
    x |= __builtin_shufflevector(
        x, x, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7);
#endif
#if FK_VL >= 8
#if FK_VL == 8
    x |= __builtin_shufflevector(x, x, 4, 5, 6, 7, 0, 1, 2, 3);
#else
    x |= __builtin_shufflevector(
        x, x, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11);
#endif
#endif
    return x;
}

/* Merges saturating counters (ones: seen once or more, twos: twice or more)
 * of all groups of a vector into every group. */
FK_FN void FK(fold_count)(FK(vec) * ones, FK(vec) * twos)
{
#if FK_VL == 16
    {
        const FK(vec) o = __builtin_shufflevector(
            *ones, *ones, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7);
        const FK(vec) t = __builtin_shufflevector(
            *twos, *twos, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7);
        *twos |= t | (*ones & o);
        *ones |= o;
    }
    {
        const FK(vec) o = __builtin_shufflevector(
            *ones, *ones, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11);
        const FK(vec) t = __builtin_shufflevector(
            *twos, *twos, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11);
        *twos |= t | (*ones & o);
        *ones |= o;
    }
#elif FK_VL == 8
    const FK(vec) o = __builtin_shufflevector(*ones, *ones, 4, 5, 6, 7, 0, 1, 2, 3);
    const FK(vec) t = __builtin_shufflevector(*twos, *twos, 4, 5, 6, 7, 0, 1, 2, 3);
    *twos |= t | (*ones & o);
    *ones |= o;
#else
    (void) ones;
    (void) twos;
#endif
}

/* True when any lane of x is non-zero: one test instruction where the
 * instruction set has it (FK_TEST), else an OR of the halves. */
FK_FN bool FK(any)(FK(vec) x)
{
#if defined(FK_TEST)
    return FK_TEST(x);
#else
#if FK_VL == 16
    const uint32_t __attribute__((vector_size(32))) h8
        = __builtin_shufflevector(x, x, 0, 1, 2, 3, 4, 5, 6, 7)
        | __builtin_shufflevector(x, x, 8, 9, 10, 11, 12, 13, 14, 15);
    const uint32_t __attribute__((vector_size(16))) h
        = __builtin_shufflevector(h8, h8, 0, 1, 2, 3)
        | __builtin_shufflevector(h8, h8, 4, 5, 6, 7);
#elif FK_VL == 8
    const uint32_t __attribute__((vector_size(16))) h
        = __builtin_shufflevector(x, x, 0, 1, 2, 3)
        | __builtin_shufflevector(x, x, 4, 5, 6, 7);
#else
    const FK(vec) h = x;
#endif
    const FK(vec2) q = (FK(vec2)) h;
    return (q[0] | q[1]) != 0;
#endif
}

/* In-word rotations of the 3x3 structures of a band word (see fast.c):
 * rotg: column j of each minirow takes column j+1 (j+2) of the same minirow;
 * rotb: minirow k of each row takes minirow k+1 (k+2) of the same row;
 * rotr: row r takes row r+1 (r+2) of the band. */
FK_FN FK(vec) FK(rotg1)(FK(vec) x)
{
    return ((x >> 1) & (FAST_G0 | FAST_G1)) | ((x << 2) & FAST_G2);
}

FK_FN FK(vec) FK(rotg2)(FK(vec) x)
{
    return ((x >> 2) & FAST_G0) | ((x << 1) & (FAST_G1 | FAST_G2));
}

FK_FN FK(vec) FK(rotb1)(FK(vec) x)
{
    return ((x >> 3) & (FAST_K0 | FAST_K1)) | ((x << 6) & FAST_K2);
}

FK_FN FK(vec) FK(rotb2)(FK(vec) x)
{
    return ((x >> 6) & FAST_K0) | ((x << 3) & (FAST_K1 | FAST_K2));
}

FK_FN FK(vec) FK(rotr1)(FK(vec) x)
{
    return ((x >> 9) | (x << 18)) & FAST_ALL;
}

FK_FN FK(vec) FK(rotr2)(FK(vec) x)
{
    return ((x >> 18) | (x << 9)) & FAST_ALL;
}

/* The multipliers that spread a bit over its minirow (7) and a column bit
 * over the band's three rows (0x40201). Where FK_OPAQUE is set they are hidden
 * from constant folding so that the products stay multiplications: a core
 * may issue only one 512-bit shift per cycle, and moving this work to the
 * multiplier balances the ports (clang does this by itself). */
struct FK(spread) {
    FK(vec) minirow, column;
};

FK_FN struct FK(spread) FK(spreaders)(void)
{
    const FK(vec) zero = { 0 };
    struct FK(spread) m = { zero + 7u, zero + 0x40201u };
#ifdef FK_OPAQUE
    __asm__("" : "+v"(m.minirow), "+v"(m.column));
#endif
    return m;
}

/* Every minirow with a bit in x, as a full 3-bit minirow mask. */
FK_FN FK(vec) FK(minirows)(FK(vec) x, struct FK(spread) m)
{
    const FK(vec) t = (x | (x >> 1) | (x >> 2)) & FAST_G0;
    return t * m.minirow;
}

/* Every column of the band with a bit in x, on all three rows. */
FK_FN FK(vec) FK(columns)(FK(vec) x, struct FK(spread) m)
{
    const FK(vec) t = (x | (x >> 9) | (x >> 18)) & FAST_ROW0;
    return t * m.column;
}

/* Locked candidates: a digit sits in one minirow of each row and of each box
 * of a band, so its minirows form a 3x3 permutation matrix; a minirow on no
 * permutation of the occupied ones is removed. The same for the minicolumns
 * of a stack, whose rows are the three band lanes of the digit. This covers
 * pointing and claiming in both directions, and empties the band of a digit
 * that has a row, box or column without a candidate. w gets v less what
 * either removes, both judged on v: filtering the columns after the rows would
 * find a little more per round, but the two filters are independent this way
 * and a round's time is mostly its chain of dependent steps. */
FK_FN void FK(locked)(FK(vec) w[FK_NV], const FK(vec) v[FK_NV], struct FK(spread) m)
{
    /* rows and columns both from the snapshot v, so that neither waits for
     * the other: a round's time is mostly its chain of dependent steps */
    FK(vec) c[FK_NV], c1[FK_NV], c2[FK_NV];
    for (int i = 0; i < FK_NV; i++) {
        /* entry (r, k) needs (r+1, k+1) & (r+2, k+2) or (r+1, k+2) & (r+2,
         * k+1); the row+2 terms are the row+1 terms rotated once more */
        const FK(vec) a1 = FK(rotr1)(FK(minirows)(v[i], m));
        const FK(vec) p = FK(rotb1)(a1), q = FK(rotb2)(a1);
        w[i] = v[i] & ((p & FK(rotr1)(q)) | (q & FK(rotr1)(p)));
        c[i] = FK(columns)(v[i], m);
    }
    /* the same with bands for rows and columns for boxes; the band
     * rotations move whole lanes and commute with the in-word ones */
    FK(rot1)(c1, c);
    FK(rot2)(c2, c);
    for (int i = 0; i < FK_NV; i++)
        w[i] &= (FK(rotg1)(c1[i]) & FK(rotg2)(c2[i]))
            | (FK(rotg2)(c1[i]) & FK(rotg1)(c2[i]));
}

/* Saturating counters over the digits: c[k] marks positions seen k+1 times
 * or more. */
FK_FN void FK(count4)(FK(vec) c[4], FK(vec) x)
{
    c[3] |= c[2] & x;
    c[2] |= c[1] & x;
    c[1] |= c[0] & x;
    c[0] |= x;
}

FK_FN void FK(fold4)(FK(vec) c[4])
{
#if FK_VL > 4
    for (int step = FK_VL / 8; step >= 1; step /= 2) {
        FK(vec) o[4];
        for (int k = 0; k < 4; k++) {
#if FK_VL == 16
            o[k] = step == 2 ? __builtin_shufflevector(
                       c[k], c[k], 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7)
                             : __builtin_shufflevector(c[k], c[k], 4, 5, 6, 7, 0, 1, 2, 3,
                                 12, 13, 14, 15, 8, 9, 10, 11);
#else
            o[k] = __builtin_shufflevector(c[k], c[k], 4, 5, 6, 7, 0, 1, 2, 3);
#endif
        }
        c[3] |= o[3] | (c[2] & o[0]) | (c[1] & o[1]) | (c[0] & o[2]);
        c[2] |= o[2] | (c[1] & o[0]) | (c[0] & o[1]);
        c[1] |= o[1] | (c[0] & o[0]);
        c[0] |= o[0];
    }
#else
    (void) c;
#endif
}

/* Triads: a minirow (3 cells of a row in a box) holds exactly 3 digits, and
 * so does a minicolumn. A digit is required in a minirow when it is its only
 * minirow in the row or in the box. Three required digits shut the others
 * out; three possible digits are all required; a required digit leaves the
 * other minirows of its row and box. The same for minicolumns, whose
 * neighbours are the other bands (column) and the other columns of the stack
 * in the band (box). */
FK_FN bool FK(triads)(FK(vec) w[FK_NV], struct FK(spread) m)
{
    FK(vec) ph[FK_NV], rh[FK_NV], pv[FK_NV], rv[FK_NV], c1[FK_NV], c2[FK_NV];
    FK(vec) cph[4] = { { 0 } };
    FK(vec) crh[4] = { { 0 } };
    FK(vec) cpv[4] = { { 0 } };
    FK(vec) crv[4] = { { 0 } };
    for (int i = 0; i < FK_NV; i++) {
        const FK(vec) o = FK(minirows)(w[i], m);
        ph[i] = o;
        rh[i] = o & (~(FK(rotb1)(o) | FK(rotb2)(o)) | ~(FK(rotr1)(o) | FK(rotr2)(o)));
        pv[i] = FK(columns)(w[i], m);
    }
    FK(rot1)(c1, pv);
    FK(rot2)(c2, pv);
    for (int i = 0; i < FK_NV; i++) {
        const FK(vec) c = pv[i];
        rv[i] = c & (~(c1[i] | c2[i]) | ~(FK(rotg1)(c) | FK(rotg2)(c)));
        FK(count4)(cph, ph[i]);
        FK(count4)(crh, rh[i]);
        FK(count4)(cpv, pv[i]);
        FK(count4)(crv, rv[i]);
    }
#if FK_PACKED
    FK(count4)(cph, FK(digit8)(ph));
    FK(count4)(crh, FK(digit8)(rh));
    FK(count4)(cpv, FK(digit8)(pv));
    FK(count4)(crv, FK(digit8)(rv));
#endif
    FK(fold4)(cph);
    FK(fold4)(crh);
    FK(fold4)(cpv);
    FK(fold4)(crv);
    const FK(vec) bands = FK_REP4(FK_A, FK_A, FK_A, 0);
    if (FK(any)((bands & ~(cph[2] & cpv[2])) | crh[3] | crv[3]))
        return false;
    const FK(vec) three_h = cph[2] & ~cph[3], full_h = crh[2];
    const FK(vec) three_v = cpv[2] & ~cpv[3], full_v = crv[2];
    FK(vec) q[FK_NV];
    for (int i = 0; i < FK_NV; i++)
        q[i] = rv[i] | (pv[i] & FK(to_digit8)(three_v, i));
    FK(rot1)(c1, q);
    FK(rot2)(c2, q);
    for (int i = 0; i < FK_NV; i++) {
        const FK(vec) r = rh[i] | (ph[i] & FK(to_digit8)(three_h, i));
        const FK(vec) out = (FK(to_digit8)(full_h, i) & ~rh[i]) | FK(rotb1)(r)
            | FK(rotb2)(r) | FK(rotr1)(r) | FK(rotr2)(r)
            | (FK(to_digit8)(full_v, i) & ~rv[i]) | c1[i] | c2[i] | FK(rotg1)(q[i])
            | FK(rotg2)(q[i]);
        w[i] &= ~out;
    }
    return true;
}

/* The bits of x alone in their row: a row's 9-bit field F has no bit left
 * in F & (F - 1), all three fields at once by one subtraction. No borrow
 * crosses fields while every row holds a candidate, as FK(locked) leaves it
 * unless its column filter emptied a row; a borrow then only hides singles
 * (F & (F - 2) is 0 only for one bit too), on a board that is lost anyway.
 * It takes half the instructions of "alone in its minirow, its minirow alone
 * in the row", which matters on the narrower paths. */
FK_FN FK(vec) FK(alone_in_row)(FK(vec) x)
{
    const FK(vec) d = x & (x - 0x40201u);
#if FK_VL == 16
    /* a field less one is negative only when it was 0: its sign shifted down
     * to 9 bits (compares into mask registers cost more on this path) */
    return x
        & (((d & FAST_ROW0) - 1) >> 23 | (((d >> 9) & FAST_ROW0) - 1) >> 23 << 9
            | ((d >> 18) - 1) >> 23 << 18);
#else
    const FK(vec) zero = { 0 };
    const FK(vec) row0 = zero + FAST_ROW0, row1 = zero + (FAST_ROW0 << 9),
                  row2 = zero + (FAST_ROW0 << 18);
    return x
        & ((row0 & (FK(vec))((d & row0) == 0)) | (row1 & (FK(vec))((d & row1) == 0))
            | (row2 & (FK(vec))((d & row2) == 0)));
#endif
}

/* Hidden singles: the cells that are the digit's only place in their row or
 * column. (The only place in a box is also the only one in its row once
 * FK(locked) has run, as it does first in every round; when it is the
 * column filter of the same round that left the box one minirow, the row
 * filter, which read the round's snapshot, acts on the next round.) "Alone in
 * its row": see FK(alone_in_row). "Alone in its column within the band" comes
 * from the majority of the three shifted copies that columns are made of. */
FK_FN void FK(hidden)(FK(vec) hs[FK_NV], const FK(vec) ws[FK_NV], struct FK(spread) m)
{
    FK(vec) c[FK_NV], c1[FK_NV], c2[FK_NV], in_row[FK_NV], in_band_column[FK_NV];
    for (int i = 0; i < FK_NV; i++) {
        const FK(vec) w = ws[i];
        in_row[i] = FK(alone_in_row)(w);
        const FK(vec) y1 = w >> 9, y2 = w >> 18;
        const FK(vec) u = (w | y1 | y2) & FAST_ROW0;
        c[i] = u * m.column;
        const FK(vec) pile = ((w & y1) | (w & y2) | (y1 & y2)) & FAST_ROW0;
        in_band_column[i] = w & ~(pile * m.column);
    }
    FK(rot1)(c1, c);
    FK(rot2)(c2, c);
    for (int i = 0; i < FK_NV; i++)
        hs[i] = in_row[i] | (in_band_column[i] & ~(c1[i] | c2[i]));
}

/* The row and column peers of the cells of k, for the digit of k. Not the
 * box: once a known cell's row holds nothing else, the next round's locked
 * candidates, which come first, clear the rest of its box anyway (its
 * minirow is then on every permutation of the band). Leaving the box to
 * them rarely costs a round and saves the box's share of the instructions
 * of every round. */
FK_FN void FK(peers)(FK(vec) out[FK_NV], const FK(vec) ks[FK_NV], struct FK(spread) m)
{
    /* rows by lane compares: no shifts */
    const FK(vec) zero = { 0 };
    const FK(vec) row0 = zero + FAST_ROW0, row1 = zero + (FAST_ROW0 << 9),
                  row2 = zero + (FAST_ROW0 << 18);
    FK(vec) c[FK_NV], c1[FK_NV], c2[FK_NV];
    for (int i = 0; i < FK_NV; i++) {
        const FK(vec) k = ks[i];
        const FK(vec) rows = (row0 & (FK(vec))((k & row0) != 0))
            | (row1 & (FK(vec))((k & row1) != 0)) | (row2 & (FK(vec))((k & row2) != 0));
        c[i] = FK(columns)(k, m);
        out[i] = rows | c[i];
    }
    FK(rot1)(c1, c);
    FK(rot2)(c2, c);
    for (int i = 0; i < FK_NV; i++)
        out[i] |= c1[i] | c2[i];
}

/* Whether no cell is in two of the digits' sets ks. */
FK_FN bool FK(one_each)(const FK(vec) ks[FK_NV])
{
    FK(vec) ones = { 0 }, twos = { 0 };
    for (int i = 0; i <= FK_NV; i++) {
#if FK_PACKED
        const FK(vec) x = i < FK_NV ? ks[i] : FK(digit8)(ks);
#else
        if (i == FK_NV)
            break;
        const FK(vec) x = ks[i];
#endif
        twos |= ones & x;
        ones |= x;
    }
    FK(fold_count)(&ones, &twos);
    const FK(vec) bands = FK_REP4(FK_A, FK_A, FK_A, 0);
    return !FK(any)(bands & twos);
}

/* Propagation: rounds of locked candidates and singles while they change
 * something, then triads (see below). A round works on all 81 cells and 9
 * digits at once from one snapshot: it applies locked candidates, finds the
 * cells whose value is known (naked singles: one candidate left; hidden
 * singles: see FK(hidden)), removes their digit from their row and column
 * (the next round's locked candidates clear their box, see FK(peers)) and
 * every other digit from them.
 * Unless `settle` is set, it stops short of the fixpoint after a round that
 * settled at most one cell more than the round before (not counting the
 * first round): the next round then mostly finds nothing, and when it does
 * find something the branches find it, so stopping trades a few more guesses
 * for fewer rounds. A board left this way may have one candidate everywhere
 * without FAST_SOLVED: the search then calls again with `settle`. In a
 * `descent` (a dense puzzle's search before its first dead ends,
 * FAST_DENSE_EMPTY) it stops after a round that settled at most
 * FAST_DESCENT_MORE cells more, and tries no triads: such a puzzle's branches
 * mostly lead to solutions, so a guess is cheaper there than a round.
 * Returns FAST_CONTRA, FAST_SOLVED (every cell has one candidate; FK(leaf_ok)
 * still has to check the units), FAST_OPEN or FAST_BUDGET (round_cap rounds
 * reached). */
FK_FN int FK(propagate)(
    FK(vec) v[FK_NV], uint64_t *rounds, uint64_t round_cap, bool settle, bool descent)
{
    const FK(vec) bands = FK_REP4(FK_A, FK_A, FK_A, 0);
    const struct FK(spread) m = FK(spreaders)();
    /* the cells known in the previous round; none before the first round, so
     * that the first never stops early */
    FK(vec) before = { 0 };
    bool first = true;
    for (;;) {
        if (*rounds >= round_cap)
            return FAST_BUDGET;
        ++*rounds;
        FK_MCA("BEGIN", "round");
        FK(vec) w[FK_NV], hs[FK_NV], k[FK_NV], p[FK_NV];
        FK(locked)(w, v, m);
        FK(hidden)(hs, w, m);
        /* counters over the digits merged as a tree, not a chain: the
         * round's time is its longest chain of dependent steps */
        FK(vec) o[FK_NV + 1], t[FK_NV + 1];
        int n = 0;
        for (; n < FK_NV; n++) {
            o[n] = w[n];
            t[n] = (FK(vec)) { 0 };
        }
#if FK_PACKED
        o[n] = FK(digit8)(w);
        t[n++] = (FK(vec)) { 0 };
#endif
#if FK_VL == 16
        for (int step = 1; step < n; step *= 2) {
            for (int i = 0; i + step < n; i += 2 * step) {
                t[i] |= t[i + step] | (o[i] & o[i + step]);
                o[i] |= o[i + step];
            }
        }
#else
        for (int i = 1; i < n; i++) {
            t[0] |= o[0] & o[i];
            o[0] |= o[i];
        }
#endif
        FK(vec) ones = o[0], twos = t[0];
        FK(fold_count)(&ones, &twos);
        if (FK(any)(bands & ~ones))
            return FAST_CONTRA;
        const FK(vec) naked = ones & ~twos;
        FK(vec) known = { 0 };
        for (int i = 0; i < FK_NV; i++) {
            k[i] = hs[i] | (w[i] & FK(to_digit8)(naked, i));
            known |= k[i];
        }
        FK(peers)(p, k, m);
#if FK_PACKED
        known = FK(fold_or)(known | FK(digit8)(k));
#else
        known = FK(fold_or)(known);
#endif
        FK(vec) changed = { 0 }, empty = { 0 };
        for (int i = 0; i < FK_NV; i++) {
            /* k lies within w */
            const FK(vec) x = k[i] | (w[i] & ~(p[i] | FK(to_digit8)(known, i)));
            changed |= x ^ v[i];
            empty |= (FK(vec))((x | FK(pad)(i)) == 0);
            v[i] = x;
        }
        if (FK(any)(empty))
            return FAST_CONTRA;
        /* every cell had one candidate and still has one: a full board, whose
         * units FK(leaf_ok) checks, without a round to confirm it */
        if (!FK(any)(bands & ~naked))
            return FAST_SOLVED;
        /* every cell known now, each for one digit: the round left one
         * candidate everywhere, a full board found without the round that
         * would confirm it (one round less per solution, which counts on
         * puzzles with many solutions) */
        if (!FK(any)(bands & ~known) && FK(one_each)(k))
            return FAST_SOLVED;
        FK_MCA("END", "round");
        if (FK(any)(changed)) {
            const FK(vec) more = known ^ before;
            const bool go_on = settle || first
                || FK_POPCOUNT(more[0]) + FK_POPCOUNT(more[1]) + FK_POPCOUNT(more[2])
                    > (descent ? FAST_DESCENT_MORE : 1);
            before = known;
            first = false;
            if (go_on)
                continue;
        }
        /* singles and locked candidates are exhausted (or stopped early):
         * triads, on their own, unless few cells are open: there they seldom
         * remove anything, and branching is cheaper than their round
         * (FAST_TRIADS_MIN_OPEN); nor in a descent (FAST_DENSE_EMPTY) */
        const FK(vec) open = bands & ~naked;
        if (descent
            || FK_POPCOUNT(open[0]) + FK_POPCOUNT(open[1]) + FK_POPCOUNT(open[2])
                < FAST_TRIADS_MIN_OPEN)
            return FAST_OPEN;
        if (*rounds >= round_cap)
            return FAST_BUDGET;
        ++*rounds;
        for (int i = 0; i < FK_NV; i++)
            w[i] = v[i];
        if (!FK(triads)(w, m))
            return FAST_CONTRA;
        changed = (FK(vec)) { 0 };
        for (int i = 0; i < FK_NV; i++) {
            changed |= w[i] ^ v[i];
            v[i] = w[i];
        }
        if (!FK(any)(changed))
            return FAST_OPEN;
    }
}

/* A full board (one candidate per cell) is a solution when every digit has a
 * cell in every row, box and column: 81 cells then leave exactly one each. */
FK_FN bool FK(leaf_ok)(const FK(vec) v[FK_NV])
{
    const FK(vec) zero = { 0 };
    FK(vec) bad = zero, c[FK_NV], c1[FK_NV], c2[FK_NV];
    for (int i = 0; i < FK_NV; i++) {
        const FK(vec) w = v[i] | FK(pad)(i);
        c[i] = (w | (w >> 9) | (w >> 18)) & FAST_ROW0;
        bad |= (FK(vec))((w & FAST_ROW0) == 0) | (FK(vec))((w & (FAST_ROW0 << 9)) == 0)
            | (FK(vec))((w & (FAST_ROW0 << 18)) == 0) | (FK(vec))((w & FAST_K0) == 0)
            | (FK(vec))((w & FAST_K1) == 0) | (FK(vec))((w & FAST_K2) == 0);
    }
    FK(rot1)(c1, c);
    FK(rot2)(c2, c);
    for (int i = 0; i < FK_NV; i++)
        bad |= (FK(vec))((c[i] | c1[i] | c2[i]) != FAST_ROW0);
    return !FK(any)(bad);
}

/* Per band, the cells with exactly two candidates and those with two or more. */
FK_FN void FK(counts)(const FK(vec) v[FK_NV], uint32_t two[3], uint32_t many[3])
{
    FK(vec) ones = { 0 }, twos = { 0 }, threes = { 0 };
    for (int i = 0; i <= FK_NV; i++) {
#if FK_PACKED
        const FK(vec) x = i < FK_NV ? v[i] : FK(digit8)(v);
#else
        if (i == FK_NV)
            break;
        const FK(vec) x = v[i];
#endif
        threes |= twos & x;
        twos |= ones & x;
        ones |= x;
    }
#if FK_VL > 4
    /* three counters do not merge as pairs do: fold them lane by lane */
    uint32_t lane[3][FK_VL];
    memcpy(lane[0], &ones, sizeof(ones));
    memcpy(lane[1], &twos, sizeof(twos));
    memcpy(lane[2], &threes, sizeof(threes));
    for (int b = 0; b < 3; b++) {
        uint32_t o = 0, t = 0, h = 0;
        for (int g = 0; g < FK_VL; g += 4) {
            const uint32_t go = lane[0][g + b], gt = lane[1][g + b], gh = lane[2][g + b];
            h |= gh | (t & go) | (o & gt);
            t |= gt | (o & go);
            o |= go;
        }
        two[b] = t & ~h;
        many[b] = t;
    }
#else
    for (int b = 0; b < 3; b++) {
        two[b] = twos[b] & ~threes[b];
        many[b] = twos[b];
    }
#endif
}

/* Board to vectors and back. The wide paths hold the vectors as a board
 * lies in memory (fast_lane_of); the portable one moves digit 8 to a vector
 * of its own and keeps its pad lanes zero. */
FK_FN void FK(load_lanes)(FK(vec) v[FK_NV], const uint32_t lane[FAST_LANES])
{
#if FK_PACKED
    memcpy(v, lane, sizeof(FK(vec)) * FK_NV);
#else
    const FK(vec) bands = { FK_A, FK_A, FK_A, 0 };
    memcpy(v, lane, sizeof(FK(vec)) * 8);
    v[8] = (FK(vec)) { v[0][3], v[1][3], v[2][3], 0 };
    for (int d = 0; d < 8; d++)
        v[d] &= bands;
#endif
}

FK_FN void FK(store_lanes)(uint32_t lane[FAST_LANES], const FK(vec) v[FK_NV])
{
#if FK_PACKED
    memcpy(lane, v, sizeof(FK(vec)) * FK_NV);
#else
    memcpy(lane, v, sizeof(FK(vec)) * 8);
    for (int b = 0; b < 3; b++)
        lane[4 * b + 3] = v[8][b];
#endif
}

FK_FN void FK(load)(FK(vec) v[FK_NV], const struct fast_board *b)
{
    FK(load_lanes)(v, b->lane);
}

FK_FN void FK(store)(struct fast_board *b, const FK(vec) v[FK_NV])
{
    FK(store_lanes)(b->lane, v);
}

/* The board of a puzzle: every digit's candidates are the empty cells and
 * its givens. On x86 one byte compare per digit and band (the scalar loop's
 * updates of the same word in memory wait on each other). */
FK_FN void FK(board_from_grid)(struct fast_board *b, const struct grid *g)
{
#if FK_VL >= 8 && defined(FK_X86_BYTES)
    memset(b, 0, sizeof(*b));
    for (int band = 0; band < 3; band++) {
        /* 32 bytes from cell 27 * band: within the grid's cell array */
        __m256i cells;
        memcpy(&cells, g->cell + 27 * band, sizeof(cells));
        const uint32_t empty = (uint32_t) _mm256_movemask_epi8(
            _mm256_cmpeq_epi8(cells, _mm256_setzero_si256()));
        for (int d = 0; d < 9; d++) {
            const uint32_t given = (uint32_t) _mm256_movemask_epi8(
                _mm256_cmpeq_epi8(cells, _mm256_set1_epi8((char) (d + 1))));
            b->lane[fast_lane_of(d, band)] = (empty | given) & FAST_ALL;
        }
    }
#else
    fast_board_from_grid(b, g);
#endif
}

/* A full board (one candidate per cell) as the solution grid. On x86 each
 * digit's band word is spread to one byte per cell (mask byte j / 8 to byte
 * j, then bit j % 8 of it), without the scalar loop's branch per cell. */
FK_FN void FK(board_to_grid)(
    const struct fast_board *b, const struct grid *puzzle, struct grid *g)
{
#if FK_VL >= 8 && defined(FK_X86_BYTES)
    *g = *puzzle;
    const __m256i spread = _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1,
        1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3);
    const __m256i bit = _mm256_set1_epi64x((long long) 0x8040201008040201ull);
    for (int band = 0; band < 3; band++) {
        __m256i cells = _mm256_setzero_si256();
        for (int d = 0; d < 9; d++) {
            const __m256i m = _mm256_shuffle_epi8(
                _mm256_set1_epi32((int) b->lane[fast_lane_of(d, band)]), spread);
            const __m256i on = _mm256_cmpeq_epi8(_mm256_and_si256(m, bit), bit);
            cells = _mm256_or_si256(
                cells, _mm256_and_si256(on, _mm256_set1_epi8((char) (d + 1))));
        }
        memcpy(g->cell + 27 * band, &cells, 27);
    }
#else
    fast_board_to_grid(b, puzzle, g);
#endif
}

/* The band and stack configurations of every digit (the bands' alone unless
 * `stacks`: the stacks then count as decided), as fast_choose_config()
 * reads them: `raw` the permutations whose parts all hold a candidate (the
 * products FK(locked) computes), `count` their number per byte, and per byte
 * of lanes 0..2 the sum over the digits of the counts of two or more (the
 * score of each band and stack; the band's in byte 0 of its lane, stack s's
 * in byte 1 + s of lane 0). */
FK_FN void FK(configs)(const FK(vec) v[FK_NV], bool stacks, uint32_t raw[FAST_LANES],
    uint32_t count[FAST_LANES], uint32_t score[3])
{
    FK(vec) sum = { 0 };
    FK(vec) xs[FK_NV], ns[FK_NV], adds[FK_NV];
    FK(vec) cs[FK_NV] = { { 0 } }, c1s[FK_NV] = { { 0 } }, c2s[FK_NV] = { { 0 } };
    /* only row 0 of the products is read, and the in-word rotations keep
     * to their row: the columns stay in row 0, the minirows in their first
     * bit, rows 1 and 2 shifted down to row 0, with no spreading */
    if (stacks) {
        for (int i = 0; i < FK_NV; i++)
            cs[i] = (v[i] | (v[i] >> 9) | (v[i] >> 18)) & FAST_ROW0;
        FK(rot1)(c1s, cs);
        FK(rot2)(c2s, cs);
    }
    for (int i = 0; i < FK_NV; i++) {
        const FK(vec) w = v[i];
        const FK(vec) t = (w | (w >> 1) | (w >> 2)) & FAST_G0;
        const FK(vec) a1 = t >> 9, a2 = t >> 18;
        const FK(vec) up = t & FK(rotb1)(a1) & FK(rotb2)(a2);
        const FK(vec) down = t & FK(rotb2)(a1) & FK(rotb1)(a2);
        FK(vec) x = (up & 0x49) | ((down & 0x49) << 1);
        if (stacks) {
            const FK(vec) c = cs[i], c1 = c1s[i], c2 = c2s[i];
            const FK(vec) cup = c & FK(rotg1)(c1) & FK(rotg2)(c2);
            const FK(vec) cdown = c & FK(rotg2)(c1) & FK(rotg1)(c2);
            x |= ((cup & 0x007) << 8) | ((cdown & 0x007) << 11) | ((cup & 0x038) << 13)
                | ((cdown & 0x038) << 16) | ((cup & 0x1C0) << 18)
                | ((cdown & 0x1C0) << 21);
        }
        FK(vec) n = x - ((x >> 1) & 0x55555555u);
        n = (n & 0x33333333u) + ((n >> 2) & 0x33333333u);
        n = (n + (n >> 4)) & 0x0F0F0F0Fu;
        xs[i] = x;
        ns[i] = n;
        /* bytes of 2 or more keep their count, the others count 0 */
        const FK(vec) open = ((n >> 1) | (n >> 2)) & 0x01010101u;
        adds[i] = n & ((open << 8) - open);
        sum += adds[i];
    }
#if FK_PACKED
    sum += FK(digit8)(adds);
#endif
    FK(store_lanes)(raw, xs);
    FK(store_lanes)(count, ns);
#if FK_VL == 16
    sum += __builtin_shufflevector(
        sum, sum, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7);
#endif
#if FK_VL == 8
    sum += __builtin_shufflevector(sum, sum, 4, 5, 6, 7, 0, 1, 2, 3);
#elif FK_VL == 16
    sum += __builtin_shufflevector(
        sum, sum, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11);
#endif
    for (int b = 0; b < 3; b++)
        score[b] = sum[b];
}

/* The configuration branch of a board: its digit (-1 when every digit has
 * one configuration everywhere) and alternatives, as fast_choose_config()
 * finds them. With `widest` (a dense puzzle, FAST_DENSE_EMPTY, or a sparse
 * one, FAST_SPARSE_GIVENS: puzzles with many solutions) it takes the widest
 * branch: the emptiest band and its least decided digit, where most branches
 * lead to solutions, so fewer guesses reach them than from the narrowest
 * branch (on unique puzzles the same rule would take far more guesses, hence
 * only those). In a descent it branches on bands only while it can: keeping to one
 * direction is what helps, not which one, and bands alone are half the work
 * of choosing among bands and stacks. */
FK_FN int FK(branch)(const FK(vec) v[FK_NV], bool widest, bool descent,
    struct fast_alt alt[6], int *nalt, int *unit)
{
    uint32_t raw[FAST_LANES], count[FAST_LANES], score[3];
    if (descent) {
        FK(configs)(v, false, raw, count, score);
        const int d = fast_choose_config(raw, count, score, true, alt, nalt, unit);
        if (d >= 0)
            return d;
    }
    FK(configs)(v, true, raw, count, score);
    /* constant arguments, so that each call has its own minimum searches */
    return widest ? fast_choose_config(raw, count, score, true, alt, nalt, unit)
                  : fast_choose_config(raw, count, score, false, alt, nalt, unit);
}

/* The number of open cells (two or more candidates, `open` per band) among
 * the peers of cell, plus a constant: row + column + box, less the overlaps
 * of the box with the row (minirow) and with the column (minicolumn). */
FK_FN int FK(open_peers)(const uint32_t open[3], int cell)
{
    const int band = cell / 27, pos = cell % 27, r = pos / 9, c = pos % 9;
    const uint32_t row = FAST_ROW0 << (9 * r), box = FAST_K0 << (3 * (c / 3));
    const uint32_t col = 0x40201u << c;
    const uint32_t u = open[band];
    return FK_POPCOUNT(u & row) + FK_POPCOUNT(u & box) + FK_POPCOUNT(open[0] & col)
        + FK_POPCOUNT(open[1] & col) + FK_POPCOUNT(open[2] & col)
        - FK_POPCOUNT(u & row & box) - FK_POPCOUNT(u & col);
}

/* The branch: among the cells with two candidates (else among all open
 * cells), the one with the most open peers, the first in band and bit order
 * on a tie; `digit` is its lowest candidate. Returns whether the cell is
 * bivalue. Most-open-peers takes about a third fewer decisions than the first
 * bivalue cell on the hard corpora: both of its branches constrain the most. */
FK_FN bool FK(choose)(const struct fast_board *b, const uint32_t two[3],
    const uint32_t open[3], int *cell, int *digit)
{
    const bool bivalue = (two[0] | two[1] | two[2]) != 0;
    const uint32_t *set = bivalue ? two : open;
    int best = -1, best_score = -1;
    for (int band = 0; band < 3; band++) {
        for (uint32_t s = set[band]; s; s &= s - 1) {
            const int c = 27 * band + __builtin_ctz(s);
            const int score = FK(open_peers)(open, c);
            if (score > best_score) {
                best_score = score;
                best = c;
            }
        }
    }
    *cell = best;
    const int lane = best / 27;
    const uint32_t bit = fast_bit(best);
    for (int d = 0; d < 9; d++) {
        if (b->lane[fast_lane_of(d, lane)] & bit) {
            *digit = d;
            break;
        }
    }
    return bivalue;
}

/* Puts first the configuration that keeps the fewest of the digit's
 * candidates: the first solution comes after fewer decisions (a quarter fewer
 * on 17-clue, a twentieth on serg at limit 1; a few percent fewer at limit 2
 * on serg, where the second solution is near the first). */
FK_FN void FK(fewest_first)(
    const struct fast_board *b, int digit, int unit, struct fast_alt alt[6], int nalt)
{
    /* a band's configurations differ in that band only, so the others'
     * candidates, the same in every alternative, are not counted */
    const int from = unit < 3 ? unit : 0, to = unit < 3 ? unit : 2;
    uint32_t word[3];
    for (int band = 0; band < 3; band++)
        word[band] = b->lane[fast_lane_of(digit, band)];
    int first = 0, fewest = 82;
    for (int i = 0; i < nalt; i++) {
        int n = 0;
        for (int band = from; band <= to; band++)
            n += FK_POPCOUNT(word[band] & alt[i].mask[band]);
        if (n < fewest) {
            fewest = n;
            first = i;
        }
    }
    const struct fast_alt t = alt[0];
    alt[0] = alt[first];
    alt[first] = t;
}

/* The depth-first search with an explicit stack of decisions (see fast.c for
 * the branching rule and the counters). */
static FK_TARGET void FK(fast_search)(struct fast_priv *p, const struct grid *puzzle,
    const struct solve_request *req, struct solve_result *res)
{
    FK(vec) v[FK_NV];
    struct fast_board board;
    FK(board_from_grid)(&board, puzzle);
    FK(load)(v, &board);
    struct fast_frame *stack = p->stack;
    int depth = 0;
    uint64_t rounds = 0, nodes = 0, guesses = 0, backtracks = 0;
    const uint64_t round_cap = req->budget_steps ? req->budget_steps : UINT64_MAX;
    bool settle = false; /* see FK(propagate) */
    const int empty = fast_empty_cells(puzzle);
    const bool dense = empty < FAST_DENSE_EMPTY;
    const bool widest = dense || 81 - empty < FAST_SPARSE_GIVENS;
    for (;;) {
        nodes += !settle;
        const bool descent = dense && backtracks < FAST_DESCENT_DEAD_ENDS;
        const int r = FK(propagate)(v, &rounds, round_cap, settle, descent);
        settle = false;
        if (r == FAST_OPEN) {
            res->counters.steps = rounds;
            if (solver_over_budget(req, res))
                break;
            FK(store)(&board, v);
            struct fast_frame *f = &stack[depth];
            struct fast_alt *alt = f->alt;
            int nalt = 0, unit = 0;
            const int d = FK(branch)(v, widest, descent, alt, &nalt, &unit);
            if (d >= 0) {
                /* one alternative per configuration, the first one now, the
                 * others kept as masks on this board */
                FK(fewest_first)(&board, d, unit, alt, nalt);
                f->board = board;
                f->digit = (int8_t) d;
                f->next = 1;
                f->nalt = (int8_t) nalt;
                depth++;
                for (int band = 0; band < 3; band++)
                    board.lane[fast_lane_of(d, band)] &= alt[0].mask[band];
            } else {
                /* cell = a, then cell != a */
                uint32_t two[3], many[3];
                FK(counts)(v, two, many);
                if (!(many[0] | many[1] | many[2])) {
                    /* a full board that propagation left unconfirmed */
                    settle = true;
                    continue;
                }
                int cell = 0, a = 0;
                FK(choose)(&board, two, many, &cell, &a);
                f->board = board;
                f->digit = (int8_t) a;
                f->next = 0;
                f->nalt = 1;
                for (int band = 0; band < 3; band++)
                    alt[0].mask[band] = band == cell / 27 ? ~fast_bit(cell) : FAST_ALL;
                depth++;
                fast_board_set(&board, cell, a);
            }
            FK(load)(v, &board);
            guesses++;
            continue;
        }
        if (r == FAST_BUDGET) {
            res->outcome = SOLVE_BUDGET;
            break;
        }
        if (r == FAST_SOLVED) {
            if (FK(leaf_ok)(v)) {
                bool stop;
                if (solver_wants_grid(req, res)) {
                    struct grid g;
                    FK(store)(&board, v);
                    FK(board_to_grid)(&board, puzzle, &g);
                    stop = solver_record_solution(req, res, &g);
                } else {
                    stop = solver_count_solution(req, res);
                }
                if (stop)
                    break;
            } else {
                backtracks++;
            }
        } else {
            backtracks++;
        }
        if (depth == 0)
            break;
        /* the next alternative of the latest decision with one left */
        struct fast_frame *f = &stack[depth - 1];
        board = f->board;
        const uint32_t *mask = f->alt[f->next].mask;
        for (int band = 0; band < 3; band++)
            board.lane[fast_lane_of(f->digit, band)] &= mask[band];
        if (++f->next == f->nalt)
            depth--;
        FK(load)(v, &board);
        guesses++;
    }
    res->counters.steps = rounds;
    res->counters.nodes = nodes;
    res->counters.guesses = guesses;
    res->counters.backtracks = backtracks;
}

#undef FK_CAT2
#undef FK_CAT
#undef FK
#undef FK_NV
#undef FK_FN
#undef FK_A
#undef FK_REP4
#undef FK_PADLAST
#undef FK_PAD0
#undef FK_PAD1
#undef FK_PACKED
#undef FK_BAND1
#undef FK_BAND2
