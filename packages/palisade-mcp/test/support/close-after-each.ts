/**
 * The servers a test starts, each closed once the test ends: `const closeLater = closeAfterEach();`
 * at the top of a file registers one `afterEach`, and `await closeLater(mount(handler))` inside a
 * test hands it the server. A test starts what it uses itself, never in a `beforeAll`, so a
 * failure, a leaked socket or a mutant it reaches is its own.
 */
import { afterEach } from 'vitest';

export interface Closable {
  close(): Promise<void>;
}

export type CloseLater = <T extends Closable>(starting: Promise<T>) => Promise<T>;

export function closeAfterEach(): CloseLater {
  const open: Closable[] = [];
  afterEach(async () => {
    // The last started first: a server mounted behind another is closed before the one it uses.
    for (const closable of open.splice(0).reverse()) await closable.close();
  });
  return async (starting) => {
    const started = await starting;
    open.push(started);
    return started;
  };
}
