/**
 * PLACEHOLDER: being written by a helper. Interface only.
 * A regular-expression engine whose matching time is linear in the input, for JSON Schema
 * `pattern` and `patternProperties`, so no host pattern can hold the event loop.
 */
export interface LinearRegExp {
  readonly source: string;
  test(input: string): boolean;
}

export function compileLinearRegExp(pattern: string): LinearRegExp {
  throw new Error(`linear-regex not implemented yet: ${pattern.length}`);
}
