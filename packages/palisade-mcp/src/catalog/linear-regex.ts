/**
 * A regular-expression engine whose matching time is linear in the input, for JSON Schema
 * `pattern` and `patternProperties`, so no host pattern can hold the event loop: V8's
 * backtracking engine takes exponential time on `^(a+)+$` against a long run of `a`s and a `!`.
 *
 * Semantics are ECMA-262 under the `u` flag (what Ajv compiles patterns with), search rather
 * than whole-string match, `test` only. Constructs a finite automaton cannot run
 * (backreferences, lookaround) and programs over the size bounds are refused at compile time
 * with `PALISADE_ERR_SCHEMA_UNSAFE`, naming the construct.
 */

import { Alphabet } from './linear-regex-alphabet.js';
import { LazyDfa } from './linear-regex-dfa.js';

export { RegexWorkExceeded } from './linear-regex-dfa.js';

import { parsePattern } from './linear-regex-parse.js';
import { compileProgram } from './linear-regex-program.js';

export interface LinearRegExp {
  readonly source: string;
  test(input: string): boolean;
  /**
   * `/source/u`, like a RegExp. Ajv keys its cache of compiled patterns by `toString()`, so
   * without this every pattern of a schema would share the first one's matcher.
   */
  toString(): string;
}

/** Compiles `pattern` once; throws `PalisadeError` (`PALISADE_ERR_SCHEMA_UNSAFE`) if it is refused. */
export function compileLinearRegExp(pattern: string): LinearRegExp {
  const program = compileProgram(pattern, parsePattern(pattern));
  const dfa = new LazyDfa(program, new Alphabet(program.sets, program.usesWordBoundary));
  return {
    source: pattern,
    test: (input: string) => dfa.test(input),
    toString: () => `/${pattern}/u`,
  };
}
