/**
 * Folds the 1,114,112 code points into the few classes a program can tell apart, so a DFA
 * state needs one transition per class rather than per code point. Two code points share a
 * class when every set of the program contains both or neither (and, with `\b`, both or
 * neither are word characters).
 *
 * Explicit sets give a fixed partition from their range boundaries. A `\p{...}` class has no
 * ranges here: computing them would mean asking the native engine about every code point (tens
 * of milliseconds per property). Instead its members are learned one input code point at a
 * time, each a single-character native test, and code points with the same answers share a
 * learned class; the DFA bounds how many it keeps (`MAX_REGEX_LEARNED_CLASSES`).
 */

import { rangesContain, WORD } from './linear-regex-charset.js';
import { MAX_REGEX_LEARNED_CLASSES } from './linear-regex-limits.js';
import type { CharSet } from './linear-regex-parse.js';

/** Code points below this are classified once, up front, and looked up in a table. */
const TABLE_SIZE = 128;

/** Learned code points remembered per pattern; the memo is only a shortcut, so it is just cleared. */
const MEMO_ENTRIES = 4_096;

/** Membership answers remembered per pattern (sets x classes, one byte each), when they fit. */
const MEMBERSHIP_MEMO_BYTES = 4_194_304;

export class Alphabet {
  private readonly bounds: Int32Array;
  private readonly natives: (RegExp | undefined)[];
  private readonly hasNative: boolean;
  /** Class of each code point below TABLE_SIZE, for the matcher's hot loop. */
  readonly ascii = new Int32Array(TABLE_SIZE);
  /** Per class: a representative code point, and 1 if it is a word character. */
  private readonly reps: number[] = [];
  private readonly words: number[] = [];
  private readonly tableClasses: number;
  private bySignature = new Map<string, number>();
  private memo = new Map<number, number>();
  /** `[cls * sets + set]`: 0 not asked yet, 1 member, 2 not; absent when it would not fit. */
  private membership: Uint8Array | undefined;

  constructor(
    private readonly sets: readonly CharSet[],
    usesWordBoundary: boolean,
  ) {
    this.bounds = partition(sets, usesWordBoundary);
    this.natives = sets.map((set) => (set.kind === 'native' ? new RegExp(set.source, 'u') : undefined));
    this.hasNative = this.natives.some((re) => re !== undefined);
    if (this.hasNative) {
      for (let cp = 0; cp < TABLE_SIZE; cp++) this.ascii[cp] = this.learn(cp);
    } else {
      for (const start of this.bounds) this.addClass(start);
      for (let cp = 0; cp < TABLE_SIZE; cp++) this.ascii[cp] = this.cell(cp);
    }
    this.tableClasses = this.reps.length;
    const classes = this.hasNative ? this.tableClasses + MAX_REGEX_LEARNED_CLASSES + 1 : this.tableClasses;
    if (classes * sets.length <= MEMBERSHIP_MEMO_BYTES)
      this.membership = new Uint8Array(classes * sets.length);
  }

  /** Classes known so far; grows only while learning `\p{...}` members. */
  get count(): number {
    return this.reps.length;
  }

  classOf(cp: number): number {
    if (cp < TABLE_SIZE) return this.ascii[cp]!;
    if (!this.hasNative) return this.cell(cp);
    const known = this.memo.get(cp);
    if (known !== undefined) return known;
    if (this.memo.size >= MEMO_ENTRIES) this.memo = new Map();
    const cls = this.learn(cp);
    this.memo.set(cp, cls);
    return cls;
  }

  /** Drops learned classes beyond the table's; the caller drops every transition that named them. */
  forget(): void {
    this.reps.length = this.tableClasses;
    this.words.length = this.tableClasses;
    this.membership?.fill(0, this.tableClasses * this.sets.length);
    this.memo = new Map();
    this.bySignature = new Map();
    for (let cp = 0; cp < TABLE_SIZE; cp++) this.bySignature.set(this.signature(cp), this.ascii[cp]!);
  }

  /** Whether every member of class `cls` is in `sets[set]` (they agree, so one representative answers). */
  contains(set: number, cls: number): boolean {
    const membership = this.membership;
    const slot = cls * this.sets.length + set;
    if (membership !== undefined && slot < membership.length && membership[slot] !== 0)
      return membership[slot] === 1;
    const cp = this.reps[cls]!;
    const native = this.natives[set];
    const own = this.sets[set]!;
    const member =
      native !== undefined
        ? native.test(String.fromCodePoint(cp))
        : own.kind === 'ranges' && rangesContain(own.ranges, cp);
    if (membership !== undefined && slot < membership.length) membership[slot] = member ? 1 : 2;
    return member;
  }

  isWord(cls: number): boolean {
    return this.words[cls] === 1;
  }

  private addClass(cp: number): number {
    this.words.push(rangesContain(WORD, cp) ? 1 : 0);
    return this.reps.push(cp) - 1;
  }

  /** Index of the partition cell holding `cp`: the last boundary not above it. */
  private cell(cp: number): number {
    const bounds = this.bounds;
    let lo = 0;
    let hi = bounds.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (bounds[mid]! <= cp) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  private learn(cp: number): number {
    const signature = this.signature(cp);
    let cls = this.bySignature.get(signature);
    if (cls === undefined) {
      cls = this.addClass(cp);
      this.bySignature.set(signature, cls);
    }
    return cls;
  }

  private signature(cp: number): string {
    let signature = `${this.cell(cp)}:`;
    const text = String.fromCodePoint(cp);
    for (const native of this.natives) if (native !== undefined) signature += native.test(text) ? '1' : '0';
    return signature;
  }
}

/** Sorted starts of the cells that the explicit sets (and `\w`, for `\b`) cut the code points into. */
function partition(sets: readonly CharSet[], usesWordBoundary: boolean): Int32Array {
  const starts = new Set<number>([0]);
  const add = (ranges: readonly number[]): void => {
    for (let i = 0; i < ranges.length; i += 2) {
      starts.add(ranges[i]!);
      starts.add(ranges[i + 1]! + 1);
    }
  };
  for (const set of sets) if (set.kind === 'ranges') add(set.ranges);
  if (usesWordBoundary) add(WORD);
  starts.delete(0x110000);
  return Int32Array.from(starts).sort();
}
