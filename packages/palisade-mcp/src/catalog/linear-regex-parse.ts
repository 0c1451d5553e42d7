/**
 * Parser for ECMA-262 patterns under the `u` flag (what Ajv uses for JSON Schema `pattern`),
 * producing a tree of only the constructs a finite automaton can run. Everything else is refused
 * here, by name, before anything executes: backreferences, lookaround, and whatever the native
 * parser itself rejects. The native constructor runs first as a syntax check only (V8 parses at
 * construction and compiles on first use; nothing is executed), so this parser can trust the
 * grammar and stays small; anything it still does not recognise is refused, never guessed at.
 */

import { PalisadeError } from '../errors.js';
import {
  complementRanges,
  DIGIT,
  DOT,
  normalizeRanges,
  type Ranges,
  SPACE,
  WORD,
} from './linear-regex-charset.js';
import { MAX_REGEX_NESTING, MAX_REGEX_REPEAT } from './linear-regex-limits.js';

/** A set of code points: explicit ranges, or a class holding `\p{...}` left to the native engine. */
export type CharSet =
  | { readonly kind: 'ranges'; readonly ranges: Ranges }
  | { readonly kind: 'native'; readonly source: string };

export type Assertion = 'start' | 'end' | 'word' | 'notWord';

export type RegexNode =
  | { readonly kind: 'char'; readonly set: CharSet }
  | { readonly kind: 'assert'; readonly what: Assertion }
  | { readonly kind: 'seq'; readonly items: readonly RegexNode[] }
  | { readonly kind: 'alt'; readonly items: readonly RegexNode[] }
  | { readonly kind: 'repeat'; readonly item: RegexNode; readonly min: number; readonly max: number };

const SHOWN_PATTERN_CHARS = 80;

/** The one error every refusal uses; the pattern is cut so a huge one does not flood a log. */
export function refusePattern(pattern: string, reason: string): PalisadeError {
  const shown = pattern.length > SHOWN_PATTERN_CHARS ? `${pattern.slice(0, SHOWN_PATTERN_CHARS)}…` : pattern;
  return new PalisadeError('PALISADE_ERR_SCHEMA_UNSAFE', `pattern /${shown}/ is refused: ${reason}`);
}

export function parsePattern(pattern: string): RegexNode {
  checkNativeSyntax(pattern);
  return new Parser(pattern).parse();
}

function checkNativeSyntax(pattern: string): void {
  try {
    new RegExp(pattern, 'u');
  } catch (error) {
    // V8's message repeats the whole pattern before the reason; keep only the reason.
    const message = error instanceof Error ? error.message : String(error);
    const cut = message.lastIndexOf('/u: ');
    const reason = cut >= 0 ? message.slice(cut + 4) : 'rejected by the ECMAScript parser';
    throw refusePattern(pattern, `invalid syntax under the u flag (${reason})`);
  }
}

const single = (cp: number): CharSet => ({ kind: 'ranges', ranges: [cp, cp] });
const EMPTY: RegexNode = { kind: 'seq', items: [] };

/** Escapes that stand for a set, outside or inside a class. */
const CLASS_ESCAPES: Record<string, Ranges> = {
  d: DIGIT,
  D: complementRanges(DIGIT),
  w: WORD,
  W: complementRanges(WORD),
  s: SPACE,
  S: complementRanges(SPACE),
};

const CONTROL_ESCAPES: Record<string, number> = { f: 0x0c, n: 0x0a, r: 0x0d, t: 0x09, v: 0x0b };

/** What `\` may precede as itself under the u flag: the syntax characters and `/`. */
const IDENTITY_ESCAPES = '^$\\.*+?()[]{}|/';

/** `{n}`, `{n,}`, `{n,m}` (sticky, run at the quantifier); a simple scan, it cannot backtrack. */
const COUNTED = /\{(\d+)(?:,(\d*))?\}/y;

/** One parsed class atom: a single code point (may bound a range) or a set (may not). */
type ClassAtom = { readonly cp: number } | { readonly set: Ranges | 'native' };

class Parser {
  private pos = 0;
  private depth = 0;

  constructor(private readonly src: string) {}

  parse(): RegexNode {
    const node = this.disjunction();
    if (this.pos < this.src.length) throw this.unsupported();
    return node;
  }

  private disjunction(): RegexNode {
    const items = [this.alternative()];
    while (this.src[this.pos] === '|') {
      this.pos++;
      items.push(this.alternative());
    }
    return items.length === 1 ? items[0]! : { kind: 'alt', items };
  }

  private alternative(): RegexNode {
    const items: RegexNode[] = [];
    while (this.pos < this.src.length && this.src[this.pos] !== '|' && this.src[this.pos] !== ')') {
      items.push(this.term());
    }
    return items.length === 1 ? items[0]! : { kind: 'seq', items };
  }

  private term(): RegexNode {
    const c = this.src[this.pos];
    if (c === '^' || c === '$') {
      this.pos++;
      return { kind: 'assert', what: c === '^' ? 'start' : 'end' };
    }
    if (c === '\\' && (this.src[this.pos + 1] === 'b' || this.src[this.pos + 1] === 'B')) {
      this.pos += 2;
      return { kind: 'assert', what: this.src[this.pos - 1] === 'b' ? 'word' : 'notWord' };
    }
    return this.quantified(this.atom());
  }

  private atom(): RegexNode {
    const c = this.src[this.pos];
    switch (c) {
      case '(':
        return this.group();
      case '[':
        return { kind: 'char', set: this.characterClass() };
      case '.':
        this.pos++;
        return { kind: 'char', set: { kind: 'ranges', ranges: DOT } };
      case '\\':
        return { kind: 'char', set: this.atomEscape() };
      case '*':
      case '+':
      case '?':
      case '{':
      case '}':
      case ']':
      case ')':
        throw this.unsupported();
      default:
        return { kind: 'char', set: single(this.literal()) };
    }
  }

  private group(): RegexNode {
    const rest = this.src.slice(this.pos, this.pos + 4);
    if (rest.startsWith('(?=')) throw refusePattern(this.src, 'lookahead (?=...) is not supported');
    if (rest.startsWith('(?!')) throw refusePattern(this.src, 'negative lookahead (?!...) is not supported');
    if (rest.startsWith('(?<=')) throw refusePattern(this.src, 'lookbehind (?<=...) is not supported');
    if (rest.startsWith('(?<!'))
      throw refusePattern(this.src, 'negative lookbehind (?<!...) is not supported');
    if (rest.startsWith('(?:')) {
      this.pos += 3;
    } else if (rest.startsWith('(?<')) {
      // A named group: the name matters only to backreferences, which are refused.
      const close = this.src.indexOf('>', this.pos);
      if (close < 0) throw this.unsupported();
      this.pos = close + 1;
    } else if (rest.startsWith('(?')) {
      // Newer group syntax (modifiers such as `(?i:...)`) that this engine does not implement.
      throw refusePattern(this.src, `group syntax "${rest.slice(0, 3)}" is not supported`);
    } else {
      this.pos += 1;
    }
    this.enter();
    const inner = this.disjunction();
    this.depth--;
    if (this.src[this.pos] !== ')') throw this.unsupported();
    this.pos++;
    return inner;
  }

  private quantified(item: RegexNode): RegexNode {
    let min: number;
    let max: number;
    const c = this.src[this.pos];
    if (c === '*') [min, max] = [0, Number.POSITIVE_INFINITY];
    else if (c === '+') [min, max] = [1, Number.POSITIVE_INFINITY];
    else if (c === '?') [min, max] = [0, 1];
    else if (c === '{') return this.counted(item);
    else return item;
    this.pos++;
    this.skipLazy();
    return { kind: 'repeat', item, min, max };
  }

  private counted(item: RegexNode): RegexNode {
    COUNTED.lastIndex = this.pos;
    const match = COUNTED.exec(this.src);
    if (!match) throw this.unsupported();
    this.pos += match[0].length;
    this.skipLazy();
    const min = this.count(match[1]!);
    const max =
      match[2] === undefined ? min : match[2] === '' ? Number.POSITIVE_INFINITY : this.count(match[2]);
    if (min > max) throw this.unsupported();
    return min === 0 && max === 0 ? EMPTY : { kind: 'repeat', item, min, max };
  }

  private count(digits: string): number {
    const n = Number(digits);
    if (n > MAX_REGEX_REPEAT) {
      throw refusePattern(this.src, `counted repetition {${digits}} exceeds ${MAX_REGEX_REPEAT}`);
    }
    return n;
  }

  /** A lazy quantifier finds a match exactly when the greedy one does; `test` only asks that. */
  private skipLazy(): void {
    if (this.src[this.pos] === '?') this.pos++;
  }

  private atomEscape(): CharSet {
    const c = this.src[this.pos + 1] ?? '';
    if (c >= '1' && c <= '9') throw refusePattern(this.src, `backreference \\${c} is not supported`);
    if (c === 'k') throw refusePattern(this.src, 'named backreference \\k<...> is not supported');
    if (c === 'p' || c === 'P') {
      const start = this.pos;
      this.propertyEscape();
      return { kind: 'native', source: this.src.slice(start, this.pos) };
    }
    const set = CLASS_ESCAPES[c];
    if (set !== undefined) {
      this.pos += 2;
      return { kind: 'ranges', ranges: set };
    }
    return single(this.characterEscape());
  }

  /** `\p{...}` / `\P{...}`: only skipped here; the native engine owns their meaning. */
  private propertyEscape(): void {
    const close = this.src.indexOf('}', this.pos);
    if (this.src[this.pos + 2] !== '{' || close < 0) throw this.unsupported();
    this.pos = close + 1;
  }

  /** A CharacterEscape (ECMA-262 22.2.1) at `\`, returning its code point. */
  private characterEscape(): number {
    const c = this.src[this.pos + 1] ?? '';
    const control = CONTROL_ESCAPES[c];
    if (control !== undefined) {
      this.pos += 2;
      return control;
    }
    if (c === 'c') {
      const letter = this.src.charCodeAt(this.pos + 2);
      this.pos += 3;
      return letter % 32;
    }
    if (c === '0') {
      this.pos += 2;
      return 0;
    }
    if (c === 'x') return this.hex(2, 2);
    if (c === 'u') return this.unicodeEscape();
    if (c !== '' && IDENTITY_ESCAPES.includes(c)) {
      this.pos += 2;
      return c.charCodeAt(0);
    }
    throw this.unsupported();
  }

  private unicodeEscape(): number {
    if (this.src[this.pos + 2] === '{') {
      const close = this.src.indexOf('}', this.pos);
      const cp = Number.parseInt(this.src.slice(this.pos + 3, close), 16);
      this.pos = close + 1;
      return cp;
    }
    const lead = this.hex(2, 4);
    // Under the u flag `\uLEAD\uTRAIL` is one code point; a lone surrogate stays itself.
    const next = this.src.slice(this.pos, this.pos + 6);
    if (lead >= 0xd800 && lead <= 0xdbff && /^\\u[dD][c-fC-F][0-9a-fA-F]{2}$/.test(next)) {
      this.pos += 6;
      return 0x10000 + ((lead - 0xd800) << 10) + (Number.parseInt(next.slice(2), 16) - 0xdc00);
    }
    return lead;
  }

  /** `skip` characters of escape prefix, then exactly `digits` hex digits. */
  private hex(skip: number, digits: number): number {
    const text = this.src.slice(this.pos + skip, this.pos + skip + digits);
    if (!/^[0-9a-fA-F]+$/.test(text) || text.length !== digits) throw this.unsupported();
    this.pos += skip + digits;
    return Number.parseInt(text, 16);
  }

  private literal(): number {
    const cp = this.src.codePointAt(this.pos)!;
    this.pos += cp > 0xffff ? 2 : 1;
    return cp;
  }

  private characterClass(): CharSet {
    const start = this.pos;
    this.pos++;
    const negated = this.src[this.pos] === '^';
    if (negated) this.pos++;
    const pairs: number[] = [];
    let native = false;
    while (this.src[this.pos] !== ']') {
      if (this.pos >= this.src.length) throw this.unsupported();
      const from = this.classAtom();
      if ('set' in from) {
        if (from.set === 'native') native = true;
        else pairs.push(...from.set);
        continue;
      }
      if (this.src[this.pos] === '-' && this.src[this.pos + 1] !== ']' && this.pos + 1 < this.src.length) {
        this.pos++;
        const to = this.classAtom();
        if (!('cp' in to) || to.cp < from.cp) throw this.unsupported();
        pairs.push(from.cp, to.cp);
      } else {
        pairs.push(from.cp, from.cp);
      }
    }
    this.pos++;
    // A class holding `\p{...}` is handed whole to the native engine, which only ever tests it
    // against one code point at a time: a single-character test cannot backtrack.
    if (native) return { kind: 'native', source: this.src.slice(start, this.pos) };
    const ranges = normalizeRanges(pairs);
    return { kind: 'ranges', ranges: negated ? complementRanges(ranges) : ranges };
  }

  private classAtom(): ClassAtom {
    if (this.src[this.pos] !== '\\') return { cp: this.literal() };
    const c = this.src[this.pos + 1] ?? '';
    if (c === 'b') {
      this.pos += 2;
      return { cp: 0x08 };
    }
    if (c === '-') {
      this.pos += 2;
      return { cp: 0x2d };
    }
    if (c === 'p' || c === 'P') {
      this.propertyEscape();
      return { set: 'native' };
    }
    const set = CLASS_ESCAPES[c];
    if (set !== undefined) {
      this.pos += 2;
      return { set };
    }
    return { cp: this.characterEscape() };
  }

  private enter(): void {
    this.depth++;
    if (this.depth > MAX_REGEX_NESTING) {
      throw refusePattern(this.src, `groups nest deeper than ${MAX_REGEX_NESTING}`);
    }
  }

  private unsupported(): PalisadeError {
    return refusePattern(this.src, `unsupported syntax at offset ${this.pos}`);
  }
}
