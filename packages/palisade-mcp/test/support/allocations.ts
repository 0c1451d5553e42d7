/**
 * Records what is asked of `Buffer.allocUnsafe`, for tests of how much memory a body reader
 * takes while real sockets deliver a body. Node's parsers hand over body chunks they allocated
 * themselves; the reader's own buffers, and nothing else on a request's path at the sizes these
 * tests watch, come from here. Read in the test's own process, with no garbage collector or other
 * test file in the figure.
 */
export interface Recording {
  /** The size of every call of at least `minBytes`, in order. */
  readonly sizes: number[];
  /** Puts the allocator back; the recording keeps what it saw. */
  stop(): void;
}

export function recordAllocations(minBytes: number): Recording {
  const original = Buffer.allocUnsafe;
  const sizes: number[] = [];
  Buffer.allocUnsafe = (size: number) => {
    if (size >= minBytes) sizes.push(size);
    return original(size);
  };
  return {
    sizes,
    stop: () => {
      Buffer.allocUnsafe = original;
    },
  };
}
