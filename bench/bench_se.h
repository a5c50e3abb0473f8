/* Sudoku Explainer ratings in a bench run: each puzzle's ER/EP/ED, read from
 * its corpus line or computed (rater/se_rate.h), carried into runs.csv's
 * se_er,se_ep,se_ed columns (bench/bench_csv.h) so that the report can set
 * time and guesses against human difficulty.
 *
 * A corpus line says its rating after the puzzle, in one of two forms:
 *  - an `ED=ER/EP/ED` field anywhere in the rest of the line, as the
 *    hardest-list files and tdoku's notes write it: `puzzle ED=7.1/1.2/1.2`;
 *  - a rating column: the first field after the puzzle is `ER` or
 *    `ER/EP/ED`, each with one decimal (`puzzle,7.1`, `puzzle\t7.1/1.2/1.2`).
 * An expected count (`puzzle:1`, bench --expect) has no decimal point, so the
 * two never mix; a field that is neither is ignored, as before. serate's
 * 20.0 (it gave up) is no rating: such a puzzle stays unrated. */
#ifndef SUDOLAB_BENCH_BENCH_SE_H
#define SUDOLAB_BENCH_BENCH_SE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/bench_run.h"

/* Reads a rating from the text after a puzzle (corpus_item.extra) into se
 * (tenths: 72 = 7.2; 0 = not given, EP and ED when only ER is). Returns
 * whether the text carries one; se is untouched when not. */
bool bench_se_parse(const char *extra, uint8_t se[3]);

/* Rates every puzzle of the plan that has no rating yet (9x9 classic ones;
 * others stay unrated; under opt.sample, the entries of the sample only), on
 * opt.threads threads, each within opt.se_rate_ms
 * (0: no limit). A puzzle without exactly one solution, whose rating runs
 * out of time, or beyond SE's techniques (serate's 20.0) stays unrated. Call
 * it before bench_plan_finish, which may permute the cells: ratings are of
 * the puzzles as the corpus gives them. Returns the number rated;
 * *out_of_time and *beyond count the puzzles that ran out and those beyond
 * the techniques. plan->stop ends it early. */
unsigned long bench_plan_rate_se(
    struct bench_plan *plan, unsigned long *out_of_time, unsigned long *beyond);

/* Takes the rating a runs.csv row carries (--resume, merge) for its puzzle
 * in corpus ci when the plan has none, and keeps the file's columns: a row
 * from a file with SE columns makes the plan write them. */
void bench_plan_take_se(struct bench_plan *plan, size_t ci, const struct bench_row *row);

#endif /* SUDOLAB_BENCH_BENCH_SE_H */
