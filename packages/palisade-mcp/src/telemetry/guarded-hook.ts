/**
 * A host's reporting hook (`onFault`, `onLog`, or the `logger` behind them), made safe to call
 * from the transports' own paths. What a hook reports has already happened: a refusal is being
 * written, a host fault is being answered -32603. A hook that throws must not undo that: thrown
 * inside the answer's promise it left the request hanging with an unhandled rejection (which ends
 * a Node process by default), and thrown while a refusal was reported it turned the refusal into
 * a 500. Its error is dropped with one line on stderr naming the hook; the error's own text is
 * the host's and is not repeated.
 */
export function guardedHook<Args extends unknown[]>(
  name: string,
  hook: (...args: Args) => void,
): (...args: Args) => void {
  return (...args: Args): void => {
    try {
      hook(...args);
    } catch {
      process.stderr.write(`palisade: the host's ${name} threw; what it was given is dropped\n`);
    }
  };
}
