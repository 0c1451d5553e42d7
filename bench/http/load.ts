/**
 * Closed-loop load: `concurrency` keep-alive connections, each sending the same request again as
 * soon as the previous answer is in, for a fixed time. Latency is measured per request from the
 * write to the last byte of the answer.
 */
import { performance } from 'node:perf_hooks';
import { KeepAliveConnection } from './raw-client.js';

export interface Window {
  readonly requests: number;
  readonly errors: number;
  readonly seconds: number;
  readonly latenciesMs: number[];
}

/**
 * Runs one window; `expect` is a byte string every 200 answer must contain (checked on the first).
 * `bytes` is the request every connection sends, or one request per connection.
 */
export async function closedLoop(
  port: number,
  bytes: Buffer | readonly Buffer[],
  concurrency: number,
  durationMs: number,
  expect: string,
): Promise<Window> {
  const connections = await Promise.all(
    Array.from({ length: concurrency }, () => KeepAliveConnection.open(port)),
  );
  const latenciesMs: number[] = [];
  let errors = 0;
  let checked = false;
  const start = performance.now();
  const stop = start + durationMs;
  await Promise.all(
    connections.map(async (connection, index) => {
      const request = Buffer.isBuffer(bytes) ? bytes : (bytes[index] as Buffer);
      while (performance.now() < stop) {
        const sent = performance.now();
        const response = await connection.request(request);
        latenciesMs.push(performance.now() - sent);
        if (response.status !== 200) errors++;
        else if (!checked) {
          checked = true;
          if (!response.body.includes(expect)) throw new Error(`unexpected answer: ${response.body}`);
        }
      }
    }),
  );
  const seconds = (performance.now() - start) / 1_000;
  for (const connection of connections) connection.close();
  return { requests: latenciesMs.length, errors, seconds, latenciesMs };
}

/**
 * Open-loop probe: one request every `intervalMs` on one connection (the next waits if the
 * previous is still out), for the legitimate caller of the drip run.
 */
export async function pacedProbe(
  port: number,
  bytes: Buffer,
  intervalMs: number,
  durationMs: number,
): Promise<Window> {
  const connection = await KeepAliveConnection.open(port);
  const latenciesMs: number[] = [];
  let errors = 0;
  const start = performance.now();
  let next = start;
  while (next < start + durationMs) {
    const wait = next - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const sent = performance.now();
    const response = await connection.request(bytes);
    latenciesMs.push(performance.now() - sent);
    if (response.status !== 200) errors++;
    next += intervalMs;
  }
  const seconds = (performance.now() - start) / 1_000;
  connection.close();
  return { requests: latenciesMs.length, errors, seconds, latenciesMs };
}
