/**
 * Reconnection delays: doubling from `initialMs` up to `maxMs`, each with up to half of it added
 * at random, so N processes that lost the database at once do not return to it in step.
 */
export class Backoff {
  readonly #initialMs: number;
  readonly #maxMs: number;
  #next: number;

  constructor(initialMs: number, maxMs: number) {
    this.#initialMs = initialMs;
    this.#maxMs = maxMs;
    this.#next = initialMs;
  }

  delay(): number {
    const base = this.#next;
    this.#next = Math.min(this.#maxMs, this.#next * 2);
    return Math.round(base + Math.random() * (base / 2));
  }

  reset(): void {
    this.#next = this.#initialMs;
  }
}
