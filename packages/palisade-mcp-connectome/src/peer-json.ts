/**
 * Reading a peer's graph bytes: wire input like any other, so the wire reader's rules in the
 * wire reader's order (size before anything is read, strict UTF-8, empty and depth before any
 * value is built, JSON syntax, lone surrogate escapes, repeated keys), under a bound of its own.
 * The wire's 1 MiB message bound would refuse a graph of a few thousand edges, so graphs get
 * `MAX_PEER_GRAPH_BYTES`; every other rule is the wire reader's own (`readJsonDocument`). Messages
 * never quote the peer's bytes beyond a repeated key's bounded, escaped name.
 */

import { MAX_JSON_DEPTH, readJsonDocument, repeatedKeyOf, type WireRule } from 'palisade-mcp/wire';
import { ConnectomeError } from './errors.js';

/**
 * Largest peer graph read, in bytes: 16 MiB, about 100,000 edges of canonical bytes.
 * → 'PALISADE_ERR_CONNECTOME_PEER_TOO_LARGE'
 */
export const MAX_PEER_GRAPH_BYTES = 16_777_216;

/** The peer's bytes as a JSON value, or a refusal naming `who` and the rule. */
export function readPeerJson(bytes: Uint8Array, who: string): unknown {
  if (!(bytes instanceof Uint8Array)) throw malformed(who, 'bytes', 'are not a Uint8Array');
  if (bytes.length > MAX_PEER_GRAPH_BYTES) {
    throw new ConnectomeError(
      'PALISADE_ERR_CONNECTOME_PEER_TOO_LARGE',
      `peer ${who}: ${bytes.length} bytes, more than the ${MAX_PEER_GRAPH_BYTES}-byte peer graph bound`,
    );
  }
  const read = readJsonDocument(bytes);
  if (read.ok) return read.value;
  const rule = read.refusal.rule;
  if (rule === 'lone-surrogate') {
    throw new ConnectomeError(
      'PALISADE_ERR_CONNECTOME_LONE_SURROGATE',
      `peer ${who}: holds a lone surrogate escape (rule lone-surrogate), which has no UTF-8 form`,
    );
  }
  if (rule === 'repeated-key') {
    const key = repeatedKeyOf(bytes);
    throw malformed(who, rule, key === undefined ? 'repeats a key' : `repeats the key ${key}`);
  }
  throw malformed(who, rule, RULE_TEXT[rule] ?? 'is refused');
}

const RULE_TEXT: Partial<Record<WireRule, string>> = {
  'invalid-utf8': 'is not valid UTF-8',
  empty: 'is empty',
  'too-deep': `nests deeper than ${MAX_JSON_DEPTH} levels`,
  'not-json': 'is not valid JSON',
};

function malformed(who: string, rule: string, what: string): ConnectomeError {
  return new ConnectomeError('PALISADE_ERR_CONNECTOME_PEER_MALFORMED', `peer ${who}: ${what} (rule ${rule})`);
}
