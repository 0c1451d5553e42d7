/**
 * Running the host's `authorize` / `authorizeBody` hooks and judging what they return. Only an
 * awaited `{ ok: true }` admits: `true`, `undefined`, a thrown error or a promise that does not
 * settle before the read deadline never does. A refusal's `reason` goes to the host's log only.
 */
import { performance } from 'node:perf_hooks';
import type { HostRuleName } from '../telemetry/refusal-rules.js';
import type { AuthorizeResult } from './http-options.js';
import { isSafeHeaderValue } from './respond.js';

export type Verdict =
  | { readonly kind: 'admit'; readonly auth: unknown }
  | {
      readonly kind: 'refuse';
      readonly status: RefusalStatus;
      readonly headers: Readonly<Record<string, string>>;
      readonly reason: string | undefined;
      /** The hook's own stable name for the refusal, when it gave a well-formed one. */
      readonly rule: HostRuleName | undefined;
    }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'fault'; readonly cause: unknown };

/** The statuses a hook's refusal may be answered with; any other it names is answered 403. */
export type RefusalStatus = 400 | 401 | 403 | 429 | 503;

const TIMED_OUT = Symbol('timed out');

const STATUSES: ReadonlySet<unknown> = new Set([400, 401, 403, 429, 503]);
/** A challenge belongs to the answers RFC 6750 §3 gives one: 400, 401, and 403 `insufficient_scope`. */
const CHALLENGED: ReadonlySet<RefusalStatus> = new Set([400, 401, 403]);
/** A host's rule name: as the transport's own are spelled, so a log query treats them alike. */
const RULE = /^[a-z][a-z0-9-]{0,63}$/;

function isHostRuleName(value: unknown): value is HostRuleName {
  return typeof value === 'string' && RULE.test(value);
}

function judge(result: unknown): Verdict {
  if (typeof result !== 'object' || result === null) {
    return {
      kind: 'refuse',
      status: 403,
      headers: {},
      reason: 'authorize returned no { ok } object',
      rule: undefined,
    };
  }
  const record = result as Record<string, unknown>;
  if (record['ok'] === true) return { kind: 'admit', auth: record['auth'] };
  const status = STATUSES.has(record['status']) ? (record['status'] as RefusalStatus) : 403;
  const given = record['headers'];
  const headers: Record<string, string> = {};
  if (typeof given === 'object' && given !== null) {
    const source = given as Record<string, unknown>;
    if (CHALLENGED.has(status) && isSafeHeaderValue(source['www-authenticate'])) {
      headers['www-authenticate'] = source['www-authenticate'];
    }
    if ((status === 429 || status === 503) && isSafeHeaderValue(source['retry-after']))
      headers['retry-after'] = source['retry-after'];
  }
  const reason = typeof record['reason'] === 'string' ? record['reason'] : undefined;
  const named = record['rule'];
  const rule = isHostRuleName(named) ? named : undefined;
  return { kind: 'refuse', status, headers, reason, rule };
}

/**
 * Runs `hook` bounded by `deadline` (monotonic ms). Reading the result may run host getters, so it
 * is guarded too. A hook that returns no thenable has settled already: its verdict is returned as
 * is, with no timer (a synchronous hook could never be timed out: no timer fires while it runs).
 * Only a thenable is raced against the deadline.
 */
export function runAuthorize(hook: () => unknown, deadline: number): Verdict | Promise<Verdict> {
  try {
    const result = hook();
    if ((typeof result === 'object' && result !== null) || typeof result === 'function') {
      const then: unknown = (result as { then?: unknown }).then;
      if (typeof then === 'function') return settleThenable(result, then as Then, deadline);
    }
    return judge(result);
  } catch (cause) {
    return { kind: 'fault', cause };
  }
}

type Then = (this: unknown, resolve: (value: unknown) => void, reject: (cause: unknown) => void) => unknown;

async function settleThenable(thenable: unknown, then: Then, deadline: number): Promise<Verdict> {
  let timer: NodeJS.Timeout | undefined;
  const lapse = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), Math.max(0, deadline - performance.now()));
  });
  try {
    // `then` as read once above, so a getter on it is not run twice.
    const settled = new Promise<unknown>((resolve, reject) => then.call(thenable, resolve, reject));
    const result = await Promise.race([settled, lapse]);
    if (result === TIMED_OUT) return { kind: 'timeout' };
    return judge(result);
  } catch (cause) {
    return { kind: 'fault', cause };
  } finally {
    clearTimeout(timer);
  }
}

export type { AuthorizeResult };
