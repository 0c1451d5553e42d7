import { expect } from 'vitest';
import { ConnectomeError, type ConnectomeErrorCode } from '../src/errors.js';

/** Runs `act`, expects a ConnectomeError, and returns it so a test can assert its code and message. */
export function refusal(act: () => unknown): ConnectomeError {
  try {
    act();
  } catch (error) {
    expect(error).toBeInstanceOf(ConnectomeError);
    return error as ConnectomeError;
  }
  throw new Error('the call was accepted');
}

export function refusedWith(act: () => unknown, code: ConnectomeErrorCode): ConnectomeError {
  const error = refusal(act);
  expect(error.code).toBe(code);
  return error;
}
