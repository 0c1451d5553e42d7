/**
 * Every bound the README (or a docs/ page it links to) states is the bound the code enforces. Each claim quotes the README as it
 * is written (whitespace collapsed, since prose wraps) and the figure inside that quote; the test
 * holds the figure to the constant in `src/limits.ts` and the quote to the README. A constant the
 * README does not state is listed as such, so a new limit is a decision here, not a silent gap.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import * as limits from '../../src/limits.js';

type LimitName = keyof typeof limits;

interface Claim {
  /** The README's words, as written. */
  readonly quote: string;
  /** The figure, exactly as the quote writes it. */
  readonly figure: string;
  /** What the figure is worth in the constant's unit (`15 s` is 15,000 ms). */
  readonly scale?: number;
  readonly limit: LimitName;
}

const CLAIMS: readonly Claim[] = [
  {
    limit: 'MAX_MESSAGE_BYTES',
    figure: '1,048,576',
    quote: 'a message over 1,048,576 bytes (stdio line, legacy frame)',
  },
  { limit: 'MAX_MESSAGE_BYTES', figure: '1048576', quote: '"line exceeds 1048576 bytes"' },
  { limit: 'MAX_MESSAGE_BYTES', figure: '1,048,576', quote: '`Content-Length` over 1,048,576' },
  {
    limit: 'MAX_MESSAGE_BYTES',
    figure: '1',
    scale: 1_048_576,
    quote: 'one trailing `\\r` counts toward the 1 MiB bound',
  },
  { limit: 'MAX_JSON_DEPTH', figure: '64', quote: '1 MiB, 64 levels of nesting' },
  { limit: 'MAX_JSON_DEPTH', figure: '64', quote: 'nesting deeper than 64 levels' },
  { limit: 'MAX_REFUSAL_KEY_CHARS', figure: '32', quote: 'naming the key (cut to 32 characters)' },
  {
    limit: 'MAX_ECHOED_VERSION_CHARS',
    figure: '64',
    quote: '`supported` and `requested` (cut to 64 characters)',
  },
  { limit: 'DEFAULT_PAGE_SIZE', figure: '50', quote: '| `pageSize` | `50` (1 to 1,000) |' },
  { limit: 'MAX_PAGE_SIZE', figure: '1,000', quote: '| `pageSize` | `50` (1 to 1,000) |' },
  { limit: 'MAX_LEGACY_HEADER_LINES', figure: '32', quote: 'a block has at most 32 header lines' },
  { limit: 'STDIO_SHUTDOWN_GRACE_MS', figure: '2,000', quote: '2,000 ms (`STDIO_SHUTDOWN_GRACE_MS`)' },
  { limit: 'DEFAULT_HTTP_READ_TIMEOUT_MS', figure: '15000', quote: '| `readTimeoutMs` | `15000` |' },
  { limit: 'DEFAULT_SNIFF_TIMEOUT_MS', figure: '5000', quote: '| `sniffTimeoutMs` | `5000` |' },
  { limit: 'MAX_ROUTES', figure: '16', quote: 'at most 16 paths' },
  { limit: 'MAX_ROUTE_BODY_BYTES', figure: '65,536', quote: 'a body of at most 65,536 bytes' },
  {
    limit: 'DEFAULT_HEADERS_TIMEOUT_MS',
    figure: '10000',
    quote: '| `headersTimeoutMs`, `requestTimeoutMs` | `10000`, `30000` |',
  },
  {
    limit: 'DEFAULT_REQUEST_TIMEOUT_MS',
    figure: '30000',
    quote: '| `headersTimeoutMs`, `requestTimeoutMs` | `10000`, `30000` |',
  },
  { limit: 'DEFAULT_KEEP_ALIVE_TIMEOUT_MS', figure: '5000', quote: '| `keepAliveTimeoutMs` | `5000` |' },
  { limit: 'DEFAULT_MAX_HEADER_SIZE', figure: '16384', quote: '| `maxHeaderSize` | `16384` |' },
  { limit: 'DEFAULT_MAX_CONNECTIONS', figure: '1024', quote: '| `maxConnections` | `1024` |' },
  { limit: 'DEFAULT_MAX_CONCURRENT_STREAMS', figure: '100', quote: '| `maxConcurrentStreams` | `100` |' },
  { limit: 'DEFAULT_MAX_SESSION_MEMORY_MB', figure: '10', quote: '| `maxSessionMemory` | `10` |' },
  { limit: 'DEFAULT_CONNECTION_TIMEOUT_MS', figure: '30000', quote: 'twice `readTimeoutMs` (`30000`)' },
  {
    limit: 'MAX_SSE_QUEUED_BYTES',
    figure: '1,114,112',
    quote: 'more than 1,114,112 bytes wait unsent (`MAX_SSE_QUEUED_BYTES`)',
  },
  {
    limit: 'SSE_DRAIN_TIMEOUT_MS',
    figure: '15',
    scale: 1_000,
    quote: 'make no progress for 15 s (`SSE_DRAIN_TIMEOUT_MS`)',
  },
  { limit: 'MAX_TEMPLATE_URI_BYTES', figure: '8,192', quote: 'URIs longer than 8,192 bytes match nothing' },
  { limit: 'MAX_REGEX_WORK', figure: '4,194,304', quote: 'cannot check within 4,194,304 steps' },
  {
    limit: 'MAX_LOGGED_HOST_CHARS',
    figure: '64',
    quote: 'cut to 64 characters (`MAX_LOGGED_HOST_CHARS`)',
  },
  {
    limit: 'MAX_TOOL_ERROR_CHARS',
    figure: '4,096',
    quote: 'A message longer than 4,096 UTF-16 code units (`MAX_TOOL_ERROR_CHARS`)',
  },
  {
    limit: 'DEFAULT_CORS_MAX_AGE_SECONDS',
    figure: '600',
    quote: '| `maxAgeSeconds` | `600` | `Access-Control-Max-Age` of a preflight answer; `0` to `7200`',
  },
  {
    limit: 'MAX_CORS_MAX_AGE_SECONDS',
    figure: '7200',
    quote: '| `maxAgeSeconds` | `600` | `Access-Control-Max-Age` of a preflight answer; `0` to `7200`',
  },
  {
    limit: 'MAX_SCHEMA_BYTES',
    figure: '262,144',
    quote: 'schema over 262,144 bytes, 32 levels or 2,000 subschemas',
  },
  {
    limit: 'MAX_SCHEMA_DEPTH',
    figure: '32',
    quote: 'schema over 262,144 bytes, 32 levels or 2,000 subschemas',
  },
  {
    limit: 'MAX_SCHEMA_SUBSCHEMAS',
    figure: '2,000',
    quote: 'schema over 262,144 bytes, 32 levels or 2,000 subschemas',
  },
  { limit: 'PROGRESS_BURST', figure: '8', quote: 'at most 8 at once and then one per 10 ms' },
  { limit: 'PROGRESS_MIN_INTERVAL_MS', figure: '10', quote: 'at most 8 at once and then one per 10 ms' },
  {
    limit: 'MAX_OPEN_SUBSCRIPTIONS',
    figure: '10,000',
    quote: 'One server holds at most 10,000 open listen streams',
  },
  {
    limit: 'MAX_RESOURCE_SUBSCRIPTIONS',
    figure: '100',
    quote: 'A listen filter names at most 100 resource URIs',
  },
  {
    limit: 'DEFAULT_LISTEN_LIFETIME_MS',
    figure: '1800000',
    quote: '| `notifications.listenLifetimeMs` | `1800000`',
  },
  { limit: 'MAX_LISTEN_LIFETIME_MS', figure: '86,400,000', quote: '`1800000` (1 to 86,400,000)' },
  { limit: 'MAX_SSE_QUEUED_EVENTS', figure: '1,024', quote: '1,024 events behind unsent bytes' },
  {
    limit: 'SSE_KEEPALIVE_INTERVAL_MS',
    figure: '15',
    scale: 1_000,
    quote: '`: keep-alive` comment every 15 s',
  },
  { limit: 'MAX_INPUT_REQUESTS', figure: '16', quote: 'At most 16 requests per round' },
  { limit: 'MAX_INPUT_REQUEST_KEY_CHARS', figure: '64', quote: 'keys up to 64 characters' },
  { limit: 'MAX_INPUT_ROUNDS', figure: '8', quote: 'past round 8' },
  { limit: 'MAX_REQUEST_STATE_BYTES', figure: '16,384', quote: 'over 16,384 bytes, past round' },
  { limit: 'DEFAULT_REQUEST_STATE_TTL_MS', figure: '300,000', quote: 'tokens live 300,000 ms' },
  { limit: 'MAX_REQUEST_STATE_TTL_MS', figure: '3,600,000', quote: '(at most 3,600,000)' },
  { limit: 'MAX_RUNNING_TASKS', figure: '64', quote: 'At most 64 handlers run as tasks in one process' },
  { limit: 'MAX_TASK_ID_CHARS', figure: '256', quote: 'Task ids are at most 256 characters' },
  { limit: 'MAX_TASK_ID_CHARS', figure: '256', quote: "someone else's or longer than 256 characters" },
  { limit: 'MAX_HEADER_LINES', figure: '1,000', quote: 'more than 1,000 header lines' },
  { limit: 'MAX_PIPELINED_REQUESTS', figure: '64', quote: 'At most 64 wait on one connection' },
  { limit: 'LINGER_MS', figure: '2,000', quote: 'for at most 2,000 ms (`LINGER_MS`)' },
  // Sessions: docs/sessions.md's table of options and docs/threat-model.md's rows.
  { limit: 'DEFAULT_MAX_SESSIONS', figure: '10,000', quote: '| `maxSessions` | 10,000 |' },
  {
    limit: 'DEFAULT_IDLE_SESSION_MS',
    figure: '1,800,000',
    quote: '| `idleTimeoutMs` | 1,800,000 (30 min) |',
  },
  { limit: 'DEFAULT_MAX_SESSION_REQUESTS', figure: '32', quote: '| `maxRequestsInFlight` | 32 |' },
  { limit: 'DEFAULT_MAX_SESSION_STREAMS', figure: '64', quote: '| `maxStreams` | 64 |' },
  { limit: 'DEFAULT_MAX_STREAM_EVENTS', figure: '1,024', quote: '| `maxStreamEvents` | 1,024 |' },
  { limit: 'DEFAULT_MAX_STREAM_BYTES', figure: '1,114,112', quote: '| `maxStreamBytes` | 1,114,112 |' },
  { limit: 'DEFAULT_INPUT_TIMEOUT_MS', figure: '300,000', quote: '| `inputTimeoutMs` | 300,000 (5 min) |' },
  { limit: 'DEFAULT_SSE_RETRY_MS', figure: '1,000', quote: '| `retryMs` | 1,000 |' },
  {
    limit: 'SESSION_LIMIT_RETRY_AFTER_SECONDS',
    figure: '60',
    quote: 'with `Retry-After: 60`; no live session',
  },
  { limit: 'SESSION_ID_BYTES', figure: '24', quote: '24 bytes (192 bits) from the CSPRNG' },
  {
    limit: 'MAX_SESSION_ID_CHARS',
    figure: '128',
    quote: 'one that is not 1 to 128 characters of `A-Za-z0-9._~+/=-` is 400 `session-id-malformed`',
  },
  {
    limit: 'MAX_CACHED_PRINCIPALS',
    figure: '1,024',
    quote: 'is remembered (at most 1,024 texts of at most 4,096 characters, emptied when full)',
  },
  {
    limit: 'MAX_CACHED_PRINCIPAL_CHARS',
    figure: '4,096',
    quote: 'is remembered (at most 1,024 texts of at most 4,096 characters, emptied when full)',
  },
  {
    limit: 'MAX_LAST_EVENT_ID_CHARS',
    figure: '128',
    quote: 'A `Last-Event-ID` that is not 1 to 128 characters of `A-Za-z0-9._~+/=:-`',
  },
];

/** Constants the README states no figure for (docs/threat-model.md covers them). */
const NOT_IN_README: readonly LimitName[] = [
  'MAX_TASK_TTL_MS',
  'MAX_CURSOR_BYTES',
  'MAX_TOOL_NAME_CHARS',
  'MAX_REGEX_REPEAT',
  'MAX_REGEX_PROGRAM',
  'MAX_REGEX_NESTING',
  'MAX_REGEX_DFA_BYTES',
  'MAX_REGEX_LEARNED_CLASSES',
  'MAX_COMPLETION_VALUES',
  'MAX_ECHOED_URI_CHARS',
  'MAX_HTTP_READ_TIMEOUT_MS',
  'MAX_SERVE_TIMEOUT_MS',
  'MAX_SUBSCRIBED_URI_BYTES',
  // Trace context bounds: stated in docs/telemetry.md, held to it by test/docs/telemetry-doc.test.ts.
  'MAX_TRACESTATE_MEMBERS',
  'MAX_TRACESTATE_BYTES',
  'MAX_BAGGAGE_MEMBERS',
  'MAX_BAGGAGE_BYTES',
  // Sessions: the largest value each option accepts (refused by name past it) and internal pacing.
  'MAX_MAX_SESSIONS',
  'MAX_IDLE_SESSION_MS',
  'MAX_MAX_SESSION_REQUESTS',
  'MAX_MAX_SESSION_STREAMS',
  'MAX_MAX_STREAM_EVENTS',
  'MAX_MAX_STREAM_BYTES',
  'MAX_INPUT_TIMEOUT_MS',
  'MAX_SSE_RETRY_MS',
  'MAX_LAPSED_REPLY_IDS',
  'SESSION_SWEEP_INTERVAL_MS',
];

// The README and the topic pages under docs/ (the README links to them): a bound stated on any of them is held.
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const README = [
  'README.md',
  ...readdirSync(`${ROOT}docs`)
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
]
  .map((path) => readFileSync(`${ROOT}${path}`, 'utf8'))
  .join('\n');
const prose = README.replace(/\s+/g, ' ');
const enforced: Readonly<Record<string, number>> = { ...limits };

describe('bounds the README states', () => {
  test.each(CLAIMS)('the README says "$quote" and $limit enforces $figure', (claim) => {
    expect(claim.quote).toContain(claim.figure);
    expect(prose).toContain(claim.quote);
    expect(enforced[claim.limit]).toBe(Number(claim.figure.replaceAll(',', '')) * (claim.scale ?? 1));
  });

  test('the HTTP/2 connection timeout is twice the read deadline, as the README says', () => {
    expect(prose).toContain('| `connectionTimeoutMs` | twice `readTimeoutMs`');
    expect(limits.DEFAULT_CONNECTION_TIMEOUT_MS).toBe(2 * limits.DEFAULT_HTTP_READ_TIMEOUT_MS);
  });

  test('every constant in limits.ts is either checked against the README here or listed as not stated there', () => {
    const decided = new Set<string>([...CLAIMS.map((claim) => claim.limit), ...NOT_IN_README]);
    expect(Object.keys(enforced).filter((name) => !decided.has(name))).toEqual([]);
  });

  test('no constant listed as not stated in the README is also checked against it', () => {
    const claimed = new Set<string>(CLAIMS.map((claim) => claim.limit));
    expect(NOT_IN_README.filter((name) => claimed.has(name))).toEqual([]);
  });
});
