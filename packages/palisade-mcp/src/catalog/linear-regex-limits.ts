/**
 * Bounds of the linear-time pattern engine, defined with every other bound in `src/limits.ts`
 * and re-exported here for the engine. Each one turns into a compile-time refusal
 * (`PALISADE_ERR_SCHEMA_UNSAFE`) or a cache bound, never into a match-time failure.
 */
export {
  MAX_REGEX_DFA_BYTES,
  MAX_REGEX_LEARNED_CLASSES,
  MAX_REGEX_NESTING,
  MAX_REGEX_PROGRAM,
  MAX_REGEX_REPEAT,
  MAX_REGEX_WORK,
} from '../limits.js';
