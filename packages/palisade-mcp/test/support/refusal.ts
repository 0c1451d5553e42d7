/**
 * The named refusal a construction check throws: `refusalOf(() => createServer(bad))` returns the
 * PalisadeError, so a test can hold its code and message. Anything else fails the test: a build
 * that goes through, or a throw that is no PalisadeError (a refusal must always be named).
 */
import { PalisadeError } from '../../src/errors.js';

export function refusalOf(build: () => unknown, whatWasAccepted = 'the input'): PalisadeError {
  try {
    build();
  } catch (error) {
    if (error instanceof PalisadeError) return error;
    throw error;
  }
  throw new Error(`${whatWasAccepted} was accepted`);
}
