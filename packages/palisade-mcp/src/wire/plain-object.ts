/**
 * What counts as a plain object: made by a literal, `JSON.parse` or `Object.create(null)`, not an
 * array and not an instance of a class. The encoder writes only such objects as JSON objects, and
 * every options check reads only such objects (options.ts re-exports this one test).
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
