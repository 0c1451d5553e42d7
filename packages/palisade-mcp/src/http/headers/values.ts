/**
 * Header lookup over Node's `req.rawHeaders` (`[name, value, name, value, ...]`) rather than
 * `req.headers`: Node joins repeated lines of an unknown header with ", ", so `Mcp-Name: a` twice
 * would read as one value `a, a`, and a repeat could hide behind a comma. Here every line stays
 * its own value, so a repeat can be seen and refused.
 *
 * Names compare in ASCII case only. `String.prototype.toLowerCase` also folds non-ASCII letters
 * (the Kelvin sign U+212A becomes `k`), which would let a name no HTTP parser treats as
 * `Mcp-Param-Kind` be read as it.
 *
 * Work is one pass over the array per request (`indexHeaders`), linear in the header block.
 * Palisade sets no cap of its own: skipping entries past a cap would hide them, and Node already
 * bounds the block (`maxHeaderSize`, 16 KiB by default, and `maxHeadersCount`, 2,000 lines by
 * default) before a request reaches us.
 */

const UPPER_CASE = /[A-Z]/g;

/** `text` with ASCII A–Z lowered and every other character kept. */
export function asciiLowerCase(text: string): string {
  let upper = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // Beyond ASCII `toLowerCase` would fold more than A–Z (see above): fold those letters alone.
    if (code > 0x7f)
      return text.replace(UPPER_CASE, (letter) => String.fromCharCode(letter.charCodeAt(0) | 0x20));
    if (code >= 0x41 && code <= 0x5a) upper = true;
  }
  // Pure ASCII, where `toLowerCase` lowers exactly A–Z; most names need nothing at all.
  return upper ? text.toLowerCase() : text;
}

/** Every header line's values under its ASCII-lowered name, each name's values in order. */
export type HeaderIndex = ReadonlyMap<string, readonly string[]>;

const NONE: readonly string[] = Object.freeze([]);

/**
 * One pass over `rawHeaders`, lowering each name once; every reader of a request's headers then
 * looks them up here. An array of odd length (never from Node) gives its unpaired last name the
 * empty value, so a reader sees a malformed header rather than none at all.
 */
export function indexHeaders(rawHeaders: readonly string[]): HeaderIndex {
  const index = new Map<string, string[]>();
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = asciiLowerCase(rawHeaders[i]!);
    const value = rawHeaders[i + 1] ?? '';
    const values = index.get(name);
    if (values === undefined) index.set(name, [value]);
    else values.push(value);
  }
  return index;
}

/** Every value of every line named `lowerName` (already lower case), in order. */
export function valuesOf(index: HeaderIndex, lowerName: string): readonly string[] {
  return index.get(lowerName) ?? NONE;
}

/** Every value of every line named `name` (any case), in order: `indexHeaders` for one name. */
export function headerValues(rawHeaders: readonly string[], name: string): readonly string[] {
  const wanted = asciiLowerCase(name);
  const values: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (asciiLowerCase(rawHeaders[i]!) === wanted) values.push(rawHeaders[i + 1] ?? '');
  }
  return values;
}
