/**
 * The one tool every contender serves, declared once as JSON Schema so Palisade and the SDK
 * validate the same shape, and the `hold` tool the memory run parks requests in.
 */

export const ECHO_SCHEMA = {
  type: 'object',
  properties: { text: { type: 'string', maxLength: 10_000 } },
  required: ['text'],
  additionalProperties: false,
} as const;

export const ECHO_DESCRIPTION = 'Returns its text argument unchanged.';

/** `hold` takes one string (up to a whole body) and answers only once the bench releases it. */
export const HOLD_SCHEMA = {
  type: 'object',
  properties: { pad: { type: 'string' } },
  required: ['pad'],
  additionalProperties: false,
} as const;

export const HOLD_DESCRIPTION = 'Waits until the benchmark releases it; used to keep requests in flight.';

/** Requests parked in `hold`, counted so the bench knows when all of them have arrived. */
export class Gate {
  private waiting: Array<() => void> = [];
  entered = 0;

  wait(): Promise<void> {
    this.entered++;
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    for (const resolve of this.waiting.splice(0)) resolve();
  }
}
