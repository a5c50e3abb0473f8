/* The functions the page calls in sudolab.wasm (web/wasm_api.c). Every call
 * reads its text from the buffer web_input() returned and answers JSON in the
 * buffer web_output() points at; the return value is that answer's length.
 * Shapes are given as box rows and columns (0, 0 = from the line's length) and
 * variant (0 standard, 1 diagonal); solvers by their index in the registry as
 * web_list() gives it. Failures answer {"ok":false,"why":...}. */
#ifndef SUDOLAB_WEB_WASM_API_H
#define SUDOLAB_WEB_WASM_API_H

#include <stdint.h>

/* A buffer for len bytes of input (plus a NUL set here), or NULL. */
char *web_input(uint32_t len);
const char *web_output(void);
uint32_t web_output_len(void);

/* The build (version, compiler, build type: config.h), the back ends, their
 * capabilities and counters, the generator's methods and levels. */
uint32_t web_list(void);
/* The puzzle: shape, symbols, its normalised line, and the first clash of
 * clues if any. */
uint32_t web_parse(int box_rows, int box_cols, int variant);
/* The cells (clues and entries) that share a unit with an equal value. */
uint32_t web_conflicts(int box_rows, int box_cols, int variant);
/* Status, solutions (up to limit; 0 = all), first solution, counters, time. */
uint32_t web_solve(int solver_index, int box_rows, int box_cols, int variant,
    uint32_t limit, uint32_t budget_ms, uint32_t budget_steps);
/* Input: puzzle line, then answer line. Verdict correct / wrong / incomplete
 * (or unsolvable: the puzzle has no solution) and the wrong entries. */
uint32_t web_check(int box_rows, int box_cols, int variant);
/* Input: one puzzle per line (up to 20000). Solves them all `passes` times
 * within budget_ms for the whole call (0: none; the page always gives one);
 * the fastest whole pass, how many passes and first-pass puzzles fit. */
uint32_t web_batch(int solver_index, int box_rows, int box_cols, int variant,
    uint32_t limit, uint32_t passes, uint32_t budget_ms);

/* Records the trace of a back end on the input puzzle into slot 0 or 1. */
uint32_t web_trace(int slot, int solver_index, int box_rows, int box_cols, int variant,
    uint32_t budget_ms, uint32_t budget_steps);
/* The replayed grid after k events of a slot's trace. */
uint32_t web_trace_state(int slot, uint32_t k);
/* The position after the first event whose counter reaches value, or -1. */
int32_t web_trace_find(int slot, int counter, uint32_t value);
/* The position after the first event past position k whose kind is `kind`
 * (solver_event_kind: guess, dead end, solution...), or -1. */
int32_t web_trace_next(int slot, uint32_t k, int kind);

/* Input: a board line. The candidates of its blank cells (the values no peer
 * holds), one string of symbols per cell ("" for filled cells). */
uint32_t web_candidates(int box_rows, int box_cols, int variant);

/* Input: the puzzle line, then the board. The first entry that contradicts
 * the solution, else the next step: on 9x9 classic boards Sudoku Explainer's
 * (rater/se_rate.h: "se" is `sudolab hint --json`'s object, "line" its text
 * line), on other shapes the logic solver's (puzzle/logic.h). */
uint32_t web_hint(int box_rows, int box_cols, int variant);
/* Input "METHOD LEVEL SEED [symmetric] [minimal]": puzzle 0 of `sudolab
 * generate` with those options, and its solution. */
uint32_t web_generate(int box_rows, int box_cols, int variant);
/* Every rater of `sudolab rate` on the input puzzle. */
uint32_t web_rate(int box_rows, int box_cols, int variant, uint32_t permutations);

#endif /* SUDOLAB_WEB_WASM_API_H */
