/**
 * The refusals the stdio framer answers with. Built once per framer from numbers we chose (the
 * bound in force, MAX_LEGACY_HEADER_LINES), never from client bytes, and frozen so a frame's
 * consumer cannot alter the next one.
 */

import { MAX_LEGACY_HEADER_LINES } from '../limits.js';
import { INVALID_REQUEST } from './codes.js';
import type { FramingRule, WireRefusal } from './refusal.js';

export interface StdioRefusals {
  readonly lineTooLarge: WireRefusal<FramingRule>;
  readonly frameTooLarge: WireRefusal<FramingRule>;
  readonly malformedContentLength: WireRefusal<FramingRule>;
  readonly malformedHeaderLine: WireRefusal<FramingRule>;
  readonly tooManyHeaderLines: WireRefusal<FramingRule>;
  readonly truncatedFrame: WireRefusal<FramingRule>;
}

function invalidRequest(rule: FramingRule, what: string): WireRefusal<FramingRule> {
  return Object.freeze({ code: INVALID_REQUEST, rule, message: `Invalid request: ${what}` });
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
