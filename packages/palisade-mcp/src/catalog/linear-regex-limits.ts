/**
 * Bounds of the linear-time pattern engine. They sit here, not in `src/limits.ts`, until the lead
 * moves them; `linear-regex.ts` re-exports them. Each one turns into a compile-time refusal
 * (`PALISADE_ERR_SCHEMA_UNSAFE`) or a cache bound, never into a match-time failure.
 */

/**
 * Largest count in a counted repetition (`{n}`, `{n,}`, `{n,m}`). Counted repetition is
 * expanded into copies of its operand, so the count multiplies the program size.
 */
export const MAX_REGEX_REPEAT = 1_000;

/**
 * Largest compiled program, in instructions. Matching costs at most (input code points) x
 * (program size) steps, so this is the factor a host pattern can put on every input.
 */
export const MAX_REGEX_PROGRAM = 10_000;

/** Deepest nesting of groups and classes; the parser and compiler recurse once per level. */
export const MAX_REGEX_NESTING = 64;

/**
 * Memory for the lazily built DFA of one compiled pattern. When it is full the cache is
 * dropped and rebuilt from the current state: matching stays linear, only slower.
 */
export const MAX_REGEX_DFA_BYTES = 1_048_576;

/**
 * Distinct input character classes remembered for patterns holding `\p{...}`, whose members are
 * learned one code point at a time from the native engine; past this the memo is dropped.
 */
export const MAX_REGEX_LEARNED_CLASSES = 1_024;
