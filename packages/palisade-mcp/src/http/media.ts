/**
 * `Accept` and `Content-Type` as RFC 9110 defines them: media ranges with parameters and q-values.
 * For each type we ask about, the most specific matching range decides its q; q=0 excludes it.
 * Whitespace is OWS (space and tab) only, as the grammar says: a no-break space is part of the
 * token it touches, so `application/json` followed by one is another type.
 */
import { asciiLowerCase, type HeaderIndex, trimOws, valuesOf } from './headers/index.js';

interface MediaRange {
  readonly type: string;
  readonly subtype: string;
  readonly q: number;
}

const Q_VALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

function parseRanges(values: readonly string[]): MediaRange[] {
  // Stryker disable next-line ArrayDeclaration: a string has no type or subtype, so it matches nothing
  const ranges: MediaRange[] = [];
  for (const element of values.join(',').split(',')) {
    // split() always returns a first element.
    const [range, ...params] = element.split(';') as [string, ...string[]];
    const parts = asciiLowerCase(trimOws(range)).split('/');
    // `type/subtype`, nothing more or less. An empty type or subtype (`/json`) needs no test of its
    // own: it is no type asked about and no `*`, so it matches nothing.
    if (parts.length !== 2) continue;
    const [type, subtype] = parts as [string, string];
    let q = 1;
    for (const param of params) {
      const eq = param.indexOf('=');
      if (eq === -1 || asciiLowerCase(trimOws(param.slice(0, eq))) !== 'q') continue;
      const text = trimOws(param.slice(eq + 1));
      // A malformed q makes the range unusable rather than silently weight 1.
      q = Q_VALUE.test(text) ? Number(text) : 0;
    }
    ranges.push({ type: trimOws(type), subtype: trimOws(subtype), q });
  }
  return ranges;
}

function accepts(ranges: readonly MediaRange[], type: string, subtype: string): boolean {
  let best: { specificity: number; q: number } | undefined;
  for (const range of ranges) {
    let specificity: number;
    if (range.type === type && range.subtype === subtype) specificity = 2;
    else if (range.type === type && range.subtype === '*') specificity = 1;
    else if (range.type === '*' && range.subtype === '*') specificity = 0;
    else continue;
    if (best === undefined || specificity > best.specificity) best = { specificity, q: range.q };
  }
  return best !== undefined && best.q > 0;
}

export interface AcceptVerdict {
  readonly json: boolean;
  readonly eventStream: boolean;
}

const JSON_ONLY: AcceptVerdict = Object.freeze({ json: true, eventStream: false });
const BOTH: AcceptVerdict = Object.freeze({ json: true, eventStream: true });

/**
 * What clients send almost always, spelled exactly so, with the verdict `acceptVerdict` gives it
 * (a test holds the two together); any other spelling, case or spacing is parsed in full.
 */
export const COMMON_ACCEPT: ReadonlyMap<string, AcceptVerdict> = new Map([
  ['application/json, text/event-stream', BOTH],
  ['text/event-stream, application/json', BOTH],
  ['application/json,text/event-stream', BOTH],
  ['application/json', JSON_ONLY],
  ['*/*', BOTH],
]);

/**
 * An absent `Accept` means "anything" (RFC 9110 §12.5.1), so JSON is admitted; a stream is sent
 * only to a client that named `text/event-stream` (or a wildcard covering it) itself.
 */
export function readAccept(headers: HeaderIndex): AcceptVerdict {
  const values = valuesOf(headers, 'accept');
  if (values.length === 0) return JSON_ONLY;
  // Stryker disable next-line BlockStatement: a fast path to the verdict the full parse gives
  if (values.length === 1) {
    const known = COMMON_ACCEPT.get(values[0]!);
    if (known !== undefined) return known;
  }
  return acceptVerdict(values);
}

/** The full RFC 9110 reading of `Accept` lines (at least one). */
export function acceptVerdict(values: readonly string[]): AcceptVerdict {
  const ranges = parseRanges(values);
  return {
    json: accepts(ranges, 'application', 'json'),
    eventStream: accepts(ranges, 'text', 'event-stream'),
  };
}

/** Exactly one `Content-Type` line whose type is `application/json`; parameters (`charset=utf-8`) are allowed. */
export function isJsonContentType(headers: HeaderIndex): boolean {
  const values = valuesOf(headers, 'content-type');
  if (values.length !== 1) return false;
  if (values[0] === 'application/json') return true;
  const type = asciiLowerCase(trimOws(values[0]!.split(';')[0]!));
  return type === 'application/json';
}
