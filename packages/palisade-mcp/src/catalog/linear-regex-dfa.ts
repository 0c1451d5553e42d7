/**
 * Runs a program as a lazily built DFA (the RE2 design). A DFA state is the set of NFA threads
 * alive before a code point, plus what the assertions need to know about the code point before
 * it; its transition on each input class is computed the first time it is taken (one epsilon
 * closure, O(program size)) and then cached. Only `test` is needed, so thread priority and
 * captures do not exist here and a state is a plain set.
 *
 * Cost: each input code point is one table lookup once cached, and otherwise one closure plus
 * sorting the new thread set, so a `test` is O(n x m log m) for n code points and m instructions
 * whatever the pattern, and O(n) once the states an input meets are cached. The cache is
 * bounded (`MAX_REGEX_DFA_BYTES`); when full it is dropped and rebuilt from the current state,
 * which costs speed, never correctness or the bound. Patterns whose DFA is exponential, such as
 * `(a|b)*a(a|b){20}`, keep rebuilding and run at that rate: seconds per MiB for m in the hundreds.
 */

import type { Alphabet } from './linear-regex-alphabet.js';
import { MAX_REGEX_DFA_BYTES, MAX_REGEX_LEARNED_CLASSES, MAX_REGEX_WORK } from './linear-regex-limits.js';

/**
 * Thrown by `test` when one input needs more than MAX_REGEX_WORK thread steps: a pattern whose
 * states do not repeat rebuilds a state per code point, so the linear bound's constant (the
 * program size) is what a client would otherwise get to multiply. Validation fails closed.
 */
/**
 * What one cache miss costs beyond its threads, in thread steps: sorting, keying and interning
 * the new state. Measured: a miss with 21 threads took about 1 µs, a miss with 500 about 40 µs.
 */
const TRANSITION_OVERHEAD = 32;

export class RegexWorkExceeded extends Error {
  constructor() {
    super('the pattern needed more work than its budget allows');
    this.name = 'RegexWorkExceeded';
  }
}

import { Op, type Program } from './linear-regex-program.js';

/** Transition table entries: 0 is "not computed yet", positive values are state ids. */
const UNKNOWN = 0;
const MATCH = -1;
const DEAD = -2;

/** Flags carried in a state: only the initial state is at the start of the input. */
const AT_START = 1;
const PREV_WORD = 2;

/** Rough bookkeeping cost of one state beyond its table and key, for the cache bound. */
const STATE_OVERHEAD_BYTES = 96;

// The closure loop reads module-local copies of the opcodes: the transpilers that tests and
// `tsx` run through turn an imported binding into a getter call, which costs more than the loop body.
const CONSUME = Op.Consume;
const SPLIT = Op.Split;
const JUMP = Op.Jump;
const ASSERT_START = Op.AssertStart;
const ASSERT_END = Op.AssertEnd;
const ASSERT_WORD = Op.AssertWord;
const ASSERT_NOT_WORD = Op.AssertNotWord;
const MATCH_OP = Op.Match;

export class LazyDfa {
  /** A state's key: one flags character, then its sorted thread pcs as characters (pcs < 65,536). */
  private keys: string[] = [''];
  private tables: Int32Array[] = [new Int32Array(0)];
  /** Per state: 1 if it accepts at the end of the input, 0 if not, -1 not computed yet. */
  private ends: number[] = [-1];
  private readonly index = new Map<string, number>();
  private bytes = 0;
  private epoch = 0;
  private width: number;
  private initial = 0;
  private readonly anchored: boolean;

  // Scratch space, sized once from the program: the thread set being advanced, the next one,
  // and what a closure needs.
  private threads: Int32Array;
  private threadCount = 0;
  private next: Int32Array;
  private readonly mark: Uint32Array;
  private generation = 0;
  /** Thread steps spent on cache misses by the current `test` call. */
  private work = 0;
  private readonly stack: Int32Array;
  private readonly consuming: Int32Array;
  private consumingCount = 0;

  constructor(
    private readonly program: Program,
    private readonly alphabet: Alphabet,
  ) {
    const size = program.op.length;
    this.threads = new Int32Array(size + 1);
    this.next = new Int32Array(size + 1);
    this.mark = new Uint32Array(size);
    this.stack = new Int32Array(3 * size + 1);
    this.consuming = new Int32Array(size);
    this.width = alphabet.count;
    this.anchored = startsAnchored(program);
  }

  /** The hot loop: one table lookup per code point once the states it meets are cached. */
  test(input: string): boolean {
    const alphabet = this.alphabet;
    const ascii = alphabet.ascii;
    const n = input.length;
    let tables = this.tables;
    let s = this.start();
    this.work = 0;
    for (let i = 0; i < n; ) {
      // Under the u flag the input is a sequence of code points; a lone surrogate is one.
      let cp = input.charCodeAt(i++);
      if (cp >= 0xd800 && cp <= 0xdbff && i < n) {
        const low = input.charCodeAt(i);
        if (low >= 0xdc00 && low <= 0xdfff) {
          cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
          i++;
        }
      }
      let cls = cp < ascii.length ? ascii[cp]! : alphabet.classOf(cp);
      if (cls >= this.width) {
        s = this.widen(s);
        tables = this.tables;
        cls = alphabet.classOf(cp);
      }
      let next = tables[s]![cls]!;
      if (next <= UNKNOWN) {
        if (next === UNKNOWN) {
          next = this.transition(s, cls);
          tables = this.tables;
        }
        if (next === MATCH) return true;
        if (next === DEAD) return false;
      }
      s = next;
    }
    return this.acceptsAtEnd(s);
  }

  private start(): number {
    if (this.initial === 0) this.initial = this.intern(String.fromCharCode(AT_START, 0));
    return this.initial;
  }

  private transition(s: number, cls: number): number {
    const flags = this.load(s);
    // A cache miss costs a step per thread plus building and interning the new state; cached
    // transitions cost nothing here.
    this.work += this.threadCount + TRANSITION_OVERHEAD;
    if (this.work > MAX_REGEX_WORK) throw new RegexWorkExceeded();
    const nextWord = this.program.usesWordBoundary && this.alphabet.isWord(cls);
    if (this.closure((flags & AT_START) !== 0, (flags & PREV_WORD) !== 0, nextWord, false)) {
      this.tables[s]![cls] = MATCH;
      return MATCH;
    }
    if (!this.step(cls)) {
      this.tables[s]![cls] = DEAD;
      return DEAD;
    }
    const epoch = this.epoch;
    const id = this.intern(this.key(nextWord ? PREV_WORD : 0));
    if (this.epoch === epoch) this.tables[s]![cls] = id;
    return id;
  }

  /** Loads state `s` into the thread set; returns its flags. */
  private load(s: number): number {
    const key = this.keys[s]!;
    const threads = this.threads;
    for (let i = 1; i < key.length; i++) threads[i - 1] = key.charCodeAt(i);
    this.threadCount = key.length - 1;
    return key.charCodeAt(0);
  }

  /** The canonical key of the thread set: sorted, so equal sets are one state. */
  private key(flags: number): string {
    const pcs = this.threads.subarray(0, this.threadCount).sort();
    let key = String.fromCharCode(flags);
    // In slices: `apply` with a very long argument list can exhaust the stack.
    for (let i = 0; i < pcs.length; i += 4_096) {
      key += String.fromCharCode.apply(null, pcs.subarray(i, i + 4_096) as unknown as number[]);
    }
    return key;
  }

  /**
   * Advances the thread set over one code point of class `cls`, from the closure just computed.
   * Returns false when no thread is left (only possible when the program is anchored).
   */
  private step(cls: number): boolean {
    const { program, alphabet, consuming, next } = this;
    const gen = this.nextGeneration();
    let count = 0;
    for (let i = 0; i < this.consumingCount; i++) {
      const pc = consuming[i]!;
      if (this.mark[pc + 1] !== gen && alphabet.contains(program.a[pc]!, cls)) {
        this.mark[pc + 1] = gen;
        next[count++] = pc + 1;
      }
    }
    // Search semantics: a match may start at every position, unless none can start past 0.
    if (!this.anchored && this.mark[0] !== gen) next[count++] = 0;
    this.next = this.threads;
    this.threads = next;
    this.threadCount = count;
    return count > 0;
  }

  private acceptsAtEnd(s: number): boolean {
    let end = this.ends[s]!;
    if (end < 0) {
      const flags = this.load(s);
      end = this.closure((flags & AT_START) !== 0, (flags & PREV_WORD) !== 0, false, true) ? 1 : 0;
      this.ends[s] = end;
    }
    return end === 1;
  }

  /**
   * Epsilon closure of the thread set at a position described by the flags: collects the
   * consuming instructions reached into `consuming` and returns whether Match is reached.
   */
  private closure(atStart: boolean, prevWord: boolean, nextWord: boolean, atEnd: boolean): boolean {
    const { op, a, b } = this.program;
    const { mark, stack, consuming, threads } = this;
    const gen = this.nextGeneration();
    let top = 0;
    let count = 0;
    for (let i = 0; i < this.threadCount; i++) stack[top++] = threads[i]!;
    while (top > 0) {
      const pc = stack[--top]!;
      if (mark[pc] === gen) continue;
      mark[pc] = gen;
      switch (op[pc]) {
        case CONSUME:
          consuming[count++] = pc;
          break;
        case MATCH_OP:
          this.consumingCount = count;
          return true;
        case SPLIT:
          stack[top++] = a[pc]!;
          stack[top++] = b[pc]!;
          break;
        case JUMP:
          stack[top++] = a[pc]!;
          break;
        case ASSERT_START:
          if (atStart) stack[top++] = pc + 1;
          break;
        case ASSERT_END:
          if (atEnd) stack[top++] = pc + 1;
          break;
        case ASSERT_WORD:
          if (prevWord !== nextWord) stack[top++] = pc + 1;
          break;
        case ASSERT_NOT_WORD:
          if (prevWord === nextWord) stack[top++] = pc + 1;
          break;
      }
    }
    this.consumingCount = count;
    return false;
  }

  private nextGeneration(): number {
    if (this.generation === 0xffffffff) {
      this.mark.fill(0);
      this.generation = 0;
    }
    return ++this.generation;
  }

  private intern(key: string): number {
    const known = this.index.get(key);
    if (known !== undefined) return known;
    const cost = this.width * 4 + key.length * 2 + STATE_OVERHEAD_BYTES;
    if (this.bytes + cost > MAX_REGEX_DFA_BYTES && this.keys.length > 1) this.clear();
    const id = this.keys.push(key) - 1;
    this.tables.push(new Int32Array(this.width));
    this.ends.push(-1);
    this.index.set(key, id);
    this.bytes += cost;
    return id;
  }

  private clear(): void {
    this.keys = [''];
    this.tables = [new Int32Array(0)];
    this.ends = [-1];
    this.index.clear();
    this.bytes = 0;
    this.initial = 0;
    this.epoch++;
  }

  /**
   * A learned class outgrew the tables: widen them, or past the bound forget the learned
   * classes instead. Either way the cache is dropped; returns state `s` in the new one.
   */
  private widen(s: number): number {
    const key = this.keys[s]!;
    if (this.alphabet.count > MAX_REGEX_LEARNED_CLASSES) this.alphabet.forget();
    else this.width = Math.max(this.width * 2, this.alphabet.count);
    this.clear();
    return this.intern(key);
  }
}

/**
 * Whether no thread started past position 0 can get anywhere: every path from the program
 * start passes `^` before consuming or matching. Other assertions are taken as passing, so the
 * answer errs towards "not anchored", which is only slower.
 */
function startsAnchored(program: Program): boolean {
  const { op, a, b } = program;
  const seen = new Uint8Array(op.length);
  const stack = [0];
  while (stack.length > 0) {
    const pc = stack.pop()!;
    if (seen[pc] === 1) continue;
    seen[pc] = 1;
    switch (op[pc]) {
      case CONSUME:
      case MATCH_OP:
        return false;
      case SPLIT:
        stack.push(a[pc]!, b[pc]!);
        break;
      case JUMP:
        stack.push(a[pc]!);
        break;
      case ASSERT_START:
        break;
      default:
        stack.push(pc + 1);
    }
  }
  return true;
}
