/**
 * docs/telemetry.md is the stable interface's contract: it names every channel by the value its
 * constant has, states each trace-context bound the code enforces (these bounds are not in the
 * README, which links here), and lists every stdio refusal rule the wire can produce.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import {
  DISPATCH_CHANNEL_NAME,
  HTTP_REFUSAL_CHANNEL,
  MAX_BAGGAGE_BYTES,
  MAX_BAGGAGE_MEMBERS,
  MAX_TRACESTATE_BYTES,
  MAX_TRACESTATE_MEMBERS,
  STDIO_REFUSAL_CHANNEL,
} from '../../src/index.js';
import type { HttpTransportRule } from '../../src/telemetry/refusal-rules.js';
import { ID_IN_FLIGHT_RULE } from '../../src/transports/stdio-refusal.js';
import type { WireRule } from '../../src/wire/refusal.js';

const PAGE = readFileSync(fileURLToPath(new URL('../../../../docs/telemetry.md', import.meta.url)), 'utf8');
const prose = PAGE.replace(/\s+/g, ' ');

describe('docs/telemetry.md', () => {
  test.each([
    ['DISPATCH_CHANNEL_NAME', DISPATCH_CHANNEL_NAME],
    ['HTTP_REFUSAL_CHANNEL', HTTP_REFUSAL_CHANNEL],
    ['STDIO_REFUSAL_CHANNEL', STDIO_REFUSAL_CHANNEL],
  ])('names %s with the value the code publishes on', (constant, value) => {
    expect(prose).toContain(`| \`${constant}\` | \`${value}\` |`);
  });

  test.each([
    [
      'at most 512 bytes (UTF-8) and at most 32 list members',
      '512',
      '32',
      MAX_TRACESTATE_BYTES,
      MAX_TRACESTATE_MEMBERS,
    ],
    [
      'at most 8,192 bytes and at most 64 list members',
      '8,192',
      '64',
      MAX_BAGGAGE_BYTES,
      MAX_BAGGAGE_MEMBERS,
    ],
  ])('states "%s", the bounds the code enforces', (quote, bytesFigure, membersFigure, bytes, members) => {
    expect(prose).toContain(quote);
    expect(quote).toContain(`at most ${bytesFigure} bytes`);
    expect(quote).toContain(`at most ${membersFigure} list members`);
    expect([Number(bytesFigure.replaceAll(',', '')), Number(membersFigure)]).toEqual([bytes, members]);
  });

  test('lists every rule the stdio transport can publish', () => {
    // Keyed by WireRule, so a rule added to the wire fails the type check until it is listed here.
    const wire: Record<WireRule, true> = {
      empty: true,
      'not-json': true,
      'invalid-utf8': true,
      'lone-surrogate': true,
      'too-large': true,
      'too-deep': true,
      'repeated-key': true,
      'not-object': true,
      batch: true,
      'line-too-large': true,
      'frame-too-large': true,
      'bad-frame-header': true,
      'truncated-frame': true,
    };
    const rules = [...Object.keys(wire), ID_IN_FLIGHT_RULE];
    const section = prose.slice(
      prose.indexOf('## `palisade:stdio-refusal`'),
      prose.indexOf('## The `logger` option'),
    );
    expect(rules.filter((rule) => !section.includes(`\`${rule}\``))).toEqual([]);
  });

  test('lists every rule the HTTP transport refuses by itself', () => {
    // Keyed by HttpTransportRule, so a rule added to the transport fails the type check until it is listed here.
    const own: Record<HttpTransportRule, true> = {
      'host-repeated': true,
      'host-authority-mismatch': true,
      'host-target-mismatch': true,
      'host-not-allowed': true,
      'origin-not-allowed': true,
      'http-version': true,
      'path-not-found': true,
      'method-not-allowed': true,
      'get-stream-not-offered': true,
      'preflight-method-not-allowed': true,
      'route-method-not-allowed': true,
      'route-body': true,
      'route-fault': true,
      'route-timeout': true,
      'head-too-large': true,
      'head-timeout': true,
      'malformed-request': true,
      'head-too-many-lines': true,
      'host-missing': true,
      'expectation-failed': true,
      'pipeline-too-deep': true,
      'http2-not-served': true,
      'session-method-body': true,
      'session-id-missing': true,
      'session-id-malformed': true,
      'session-id-repeated': true,
      'session-unknown': true,
      'session-principal-mismatch': true,
      'session-limit': true,
      'session-principal-fault': true,
      'session-store-fault': true,
      'session-host-closed': true,
      'session-initialize-with-id': true,
      'session-requests-in-flight': true,
      'session-request-id-in-flight': true,
      'session-streams': true,
      'session-stream-open': true,
      'get-needs-event-stream': true,
      'last-event-id-malformed': true,
      'last-event-id-unknown': true,
      'last-event-id-evicted': true,
      'client-reply-malformed': true,
      'client-reply-unknown': true,
      'client-reply-late': true,
      'protocol-version-not-negotiated': true,
      authorize: true,
      'authorize-timeout': true,
      'authorize-fault': true,
      'authorize-body': true,
      'authorize-body-fault': true,
      'not-acceptable': true,
      'unsupported-media-type': true,
      'length-required': true,
      'read-timeout': true,
      'body-already-read': true,
      'transport-fault': true,
      'header-mismatch': true,
      'protocol-version-not-served': true,
      'listen-needs-event-stream': true,
      'sse-queue-full': true,
      'sse-drain-timeout': true,
      'sse-events-queued': true,
      'json-drain-timeout': true,
    };
    const section = prose.slice(
      prose.indexOf('## `palisade:http-refusal`'),
      prose.indexOf('## `palisade:stdio-refusal`'),
    );
    expect(Object.keys(own).filter((rule) => !section.includes(`\`${rule}\``))).toEqual([]);
  });
});
