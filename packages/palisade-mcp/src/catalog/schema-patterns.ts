/**
 * Every `pattern` and `patternProperties` key of a host schema runs on the linear-time engine,
 * never on V8's backtracking one: a client chooses the input, so `^(a+)+$` against a 1 MiB
 * argument must answer in linear time. Patterns are compiled once, while the schema is walked,
 * so a pattern the engine refuses is named with its location; Ajv then takes the compiled
 * matchers from here through its `code.regExp` option.
 */
import { PalisadeError } from '../errors.js';
import { formatPointer } from '../wire/schema-walk.js';
import { compileLinearRegExp } from './linear-regex.js';

/**
 * Ajv's `code.regExp` option, written out rather than imported: Ajv is compiled into the package's
 * bundle and is not installed with it, so no shipped declaration may name it.
 */
type RegExpEngine = ((pattern: string, flags: string) => { test(input: string): boolean }) & { code: string };

export interface PatternMatcher {
  test(input: string): boolean;
  /**
   * Ajv keys the matchers of one compilation by `toString()`: two patterns with the same key
   * would share the first one's matcher, so the key is the whole pattern, quoted.
   */
  toString(): string;
}

/** The matchers of one schema, and the engine that hands them to Ajv. */
export class SchemaPatterns {
  readonly #where: string;
  readonly #compile: (pattern: string) => { test(input: string): boolean };
  readonly #matchers = new Map<string, PatternMatcher>();
  readonly engine: RegExpEngine;

  constructor(
    where: string,
    compile: (pattern: string) => { test(input: string): boolean } = compileLinearRegExp,
  ) {
    this.#where = where;
    this.#compile = compile;
    // Ajv passes the `u` flag too; the linear engine always has `u` semantics. `code` is read
    // only when Ajv generates standalone code, which Palisade never does.
    this.engine = Object.assign((pattern: string) => this.matcher(pattern, null), {
      code: 'palisade-linear-regexp',
    });
  }

  /** The matcher for `pattern`, compiled on first use; `pointer` names it if it is refused. */
  matcher(pattern: string, pointer: readonly string[] | null): PatternMatcher {
    const known = this.#matchers.get(pattern);
    if (known !== undefined) return known;
    const at = pointer === null ? '' : ` at ${formatPointer(pointer)}`;
    let linear: { test(input: string): boolean };
    try {
      linear = this.#compile(pattern);
    } catch (error) {
      const prefix = `${this.#where}: pattern ${JSON.stringify(pattern)}${at}`;
      if (error instanceof PalisadeError) throw new PalisadeError(error.code, `${prefix}: ${error.message}`);
      const reason = error instanceof Error ? error.message : String(error);
      throw new PalisadeError('PALISADE_ERR_SCHEMA_INVALID', `${prefix} does not compile: ${reason}`);
    }
    const key = `linear:${JSON.stringify(pattern)}`;
    const matcher: PatternMatcher = { test: (input) => linear.test(input), toString: () => key };
    this.#matchers.set(pattern, matcher);
    return matcher;
  }
}
