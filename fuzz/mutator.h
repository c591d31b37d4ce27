/*
 * mutator.h - structure-aware mutation of newline-delimited JSON inputs.
 *
 * The same engine serves libFuzzer (LLVMFuzzerCustomMutator and
 * LLVMFuzzerCustomCrossOver, compiled into a target when
 * MC_FUZZ_LIBFUZZER_MUTATOR is defined) and AFL++ (afl_custom_* in a shared
 * library built with MC_FUZZ_AFL_MUTATOR; see scripts/fuzz.sh).
 *
 * Each line that parses as JSON is mutated as a tree: values retyped, keys
 * dropped, duplicated or renamed, boundary and malformed numbers, odd strings
 * (invalid UTF-8, NUL, lone surrogates, control characters, huge), method and
 * field names and enum values from the MCP dictionary (fuzz/mcp_words.inc),
 * deep nesting, subtrees spliced between messages, ids made to collide.
 * Lines are also reordered, repeated, dropped and inserted. Input that is not
 * JSON lines falls back to byte mutation.
 */
#ifndef MC_FUZZ_MUTATOR_H
#define MC_FUZZ_MUTATOR_H

#include <stddef.h>
#include <stdint.h>

/*
 * Mutates data[0..size) in place (data has room for max_size bytes) and
 * returns the new size (1..max_size). Deterministic for a given seed.
 */
size_t mc_fuzz_mutate(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

/*
 * Writes a line-wise crossover of two inputs into out (room for max_out
 * bytes) and returns its size, 0 when nothing could be made.
 */
size_t mc_fuzz_crossover(const uint8_t *a, size_t na, const uint8_t *b, size_t nb, uint8_t *out,
                         size_t max_out, unsigned int seed);

#endif /* MC_FUZZ_MUTATOR_H */
