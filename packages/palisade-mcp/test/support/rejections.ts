/**
 * Unhandled promise rejections while a test runs: a rejection nobody handles ends a Node process
 * by default, so a server that leaves one has crashed its host, whatever the test saw on the wire.
 */

/** Runs `body` and answers the rejections left unhandled meanwhile (a test expects none). */
export async function rejectionsDuring(body: () => Promise<void>): Promise<unknown[]> {
  const rejections: unknown[] = [];
  const record = (reason: unknown): void => {
    rejections.push(reason);
  };
  process.on('unhandledRejection', record);
  try {
    await body();
  } finally {
    process.off('unhandledRejection', record);
  }
  return rejections;
}
