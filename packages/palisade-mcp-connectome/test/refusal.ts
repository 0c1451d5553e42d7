import { expect } from 'vitest';
import { PalisadeError, type PalisadeErrorCode } from '../../src/errors.js';

/** Runs `act`, expects a PalisadeError, and returns it so a test can assert its code and message. */
export function refusal(act: () => unknown): PalisadeError {
  try {
    act();
  } catch (error) {
    expect(error).toBeInstanceOf(PalisadeError);
    return error as PalisadeError;
  }
  throw new Error('the call was accepted');
}

export function refusedWith(act: () => unknown, code: PalisadeErrorCode): PalisadeError {
  const error = refusal(act);
  expect(error.code).toBe(code);
  return error;
}
