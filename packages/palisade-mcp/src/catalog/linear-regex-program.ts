/**
 * Compiles a parsed pattern into a Thompson NFA program: consuming instructions, epsilon splits
 * and jumps, and zero-width assertions. Counted repetition is expanded into copies, so the size
 * is computed (and refused over the bound) before any instruction is emitted.
 */

import { MAX_REGEX_PROGRAM } from './linear-regex-limits.js';
import { type Assertion, type CharSet, type RegexNode, refusePattern } from './linear-regex-parse.js';

export const Op = {
  /** Consume one code point in `sets[a]`, then continue at pc + 1. */
  Consume: 0,
  /** Continue at both `a` and `b`. */
  Split: 1,
  Jump: 2,
  AssertStart: 3,
  AssertEnd: 4,
  AssertWord: 5,
  AssertNotWord: 6,
  Match: 7,
} as const;

const ASSERT_OPS: Record<Assertion, number> = {
  start: Op.AssertStart,
  end: Op.AssertEnd,
  word: Op.AssertWord,
  notWord: Op.AssertNotWord,
};

export interface Program {
  readonly op: Uint8Array;
  readonly a: Int32Array;
  readonly b: Int32Array;
  readonly sets: readonly CharSet[];
  /** Whether `\b` or `\B` appears: only then does the DFA track the previous character. */
  readonly usesWordBoundary: boolean;
}

export function compileProgram(pattern: string, root: RegexNode): Program {
  const size = sizeOf(root) + 1;
  if (size > MAX_REGEX_PROGRAM) {
    throw refusePattern(pattern, `the compiled program would exceed ${MAX_REGEX_PROGRAM} instructions`);
  }
  const emitter = new Emitter(size);
  emitter.node(root);
  emitter.emit(Op.Match, 0, 0);
  return emitter.finish();
}

/** Instructions `node` compiles to; Infinity-safe, so nested repetition cannot overflow. */
function sizeOf(node: RegexNode): number {
  switch (node.kind) {
    case 'char':
    case 'assert':
      return 1;
    case 'seq':
      return node.items.reduce((sum, item) => sum + sizeOf(item), 0);
    case 'alt':
      return node.items.reduce((sum, item) => sum + sizeOf(item), 0) + 2 * (node.items.length - 1);
    case 'repeat': {
      const one = sizeOf(node.item);
      if (node.max === Number.POSITIVE_INFINITY) return node.min === 0 ? one + 2 : node.min * one + 1;
      return node.min * one + (node.max - node.min) * (one + 1);
    }
  }
}

class Emitter {
  private readonly op: Uint8Array;
  private readonly a: Int32Array;
  private readonly b: Int32Array;
  private pc = 0;
  private readonly sets: CharSet[] = [];
  private readonly setIndex = new Map<string, number>();
  private usesWordBoundary = false;

  constructor(size: number) {
    this.op = new Uint8Array(size);
    this.a = new Int32Array(size);
    this.b = new Int32Array(size);
  }

  finish(): Program {
    const { op, a, b, sets, usesWordBoundary } = this;
    return { op, a, b, sets, usesWordBoundary };
  }

  emit(op: number, a: number, b: number): number {
    const pc = this.pc++;
    this.op[pc] = op;
    this.a[pc] = a;
    this.b[pc] = b;
    return pc;
  }

  /** Patches a placeholder split or jump once its target is known. */
  private patch(pc: number, a: number, b = 0): void {
    this.a[pc] = a;
    this.b[pc] = b;
  }

  node(node: RegexNode): void {
    switch (node.kind) {
      case 'char':
        this.emit(Op.Consume, this.intern(node.set), 0);
        return;
      case 'assert':
        this.assertion(node.what);
        return;
      case 'seq':
        for (const item of node.items) this.node(item);
        return;
      case 'alt':
        this.alternation(node.items);
        return;
      case 'repeat':
        this.repeat(node.item, node.min, node.max);
        return;
    }
  }

  private assertion(what: Assertion): void {
    if (what === 'word' || what === 'notWord') this.usesWordBoundary = true;
    this.emit(ASSERT_OPS[what], 0, 0);
  }

  /** `split L1, next; L1: x; jump end; next: split L2, ...; last: z; end:` */
  private alternation(items: readonly RegexNode[]): void {
    const jumps: number[] = [];
    for (let i = 0; i < items.length - 1; i++) {
      const split = this.emit(Op.Split, 0, 0);
      this.node(items[i]!);
      jumps.push(this.emit(Op.Jump, 0, 0));
      this.patch(split, split + 1, this.pc);
    }
    this.node(items[items.length - 1]!);
    for (const jump of jumps) this.patch(jump, this.pc);
  }

  private repeat(item: RegexNode, min: number, max: number): void {
    for (let i = 0; i < min; i++) {
      const start = this.pc;
      this.node(item);
      // `x{n,}` with n >= 1: the last mandatory copy loops back to itself, saving a copy.
      if (i === min - 1 && max === Number.POSITIVE_INFINITY) this.emit(Op.Split, start, this.pc + 1);
    }
    if (max === Number.POSITIVE_INFINITY) {
      if (min === 0) {
        const loop = this.emit(Op.Split, 0, 0);
        this.node(item);
        this.emit(Op.Jump, loop, 0);
        this.patch(loop, loop + 1, this.pc);
      }
      return;
    }
    // Optional copies nest, `(x(x(x)?)?)?`, rather than chain, `x?x?x?`: the same language
    // with fewer live threads, so fewer and smaller DFA states.
    const splits: number[] = [];
    for (let i = min; i < max; i++) {
      splits.push(this.emit(Op.Split, 0, 0));
      this.node(item);
    }
    for (const split of splits) this.patch(split, split + 1, this.pc);
  }

  private intern(set: CharSet): number {
    const key = set.kind === 'native' ? `p${set.source}` : `r${set.ranges.join(',')}`;
    let index = this.setIndex.get(key);
    if (index === undefined) {
      index = this.sets.push(set) - 1;
      this.setIndex.set(key, index);
    }
    return index;
  }
}
