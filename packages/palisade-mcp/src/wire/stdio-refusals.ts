/**
 * The refusals the stdio framer answers with. Built once per framer from numbers we chose (the
 * bound in force, MAX_LEGACY_HEADER_LINES), never from client bytes, and frozen so a frame's
 * consumer cannot alter the next one.
 */

import { MAX_LEGACY_HEADER_LINES } from '../limits.js';
import type { WireRefusal } from './refusal.js';

export interface StdioRefusals {
  readonly lineTooLarge: WireRefusal;
  readonly frameTooLarge: WireRefusal;
  readonly malformedContentLength: WireRefusal;
  readonly malformedHeaderLine: WireRefusal;
  readonly tooManyHeaderLines: WireRefusal;
  readonly truncatedFrame: WireRefusal;
}

function invalidRequest(rule: WireRefusal['rule'], what: string): WireRefusal {
  return Object.freeze({ code: -32600, rule, message: `Invalid request: ${what}` });
}

export function stdioRefusals(maxMessageBytes: number): StdioRefusals {
  return Object.freeze({
    lineTooLarge: invalidRequest('line-too-large', `line exceeds ${maxMessageBytes} bytes`),
    frameTooLarge: invalidRequest('frame-too-large', `frame exceeds ${maxMessageBytes} bytes`),
    malformedContentLength: invalidRequest('bad-frame-header', 'malformed Content-Length header'),
    malformedHeaderLine: invalidRequest('bad-frame-header', 'malformed header line'),
    tooManyHeaderLines: invalidRequest(
      'bad-frame-header',
      `header block exceeds ${MAX_LEGACY_HEADER_LINES} lines`,
    ),
    truncatedFrame: invalidRequest('truncated-frame', 'input ended inside a Content-Length frame'),
  });
}
