/**
 * Reading an input file of the CLI: a JSON document a host exported (a graph, a sidecar, a diff
 * record). The file is read under a byte bound, counted while reading (a file may grow, or be a
 * FIFO with no size), and parsed with the wire's checks: strict UTF-8, nesting depth, a lone
 * surrogate escape, a repeated key. Files up to the wire's message bound go through the wire's
 * own reader; larger ones through the same scan and checks, since that reader also applies the
 * 1 MiB message bound. Every refusal names the file and the rule.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { PalisadeError } from '../errors.js';
import { MAX_JSON_DEPTH, MAX_MESSAGE_BYTES } from '../limits.js';
import { isPlainObject } from '../options.js';
import { readJsonValue } from '../wire/json-reader.js';
import { countParsedKeys, findRepeatedKey, renderRefusalKey } from '../wire/json-repeated-key.js';
import { scanJson } from '../wire/json-scan.js';
import type { WireRule } from '../wire/refusal.js';
import { decodeUtf8 } from '../wire/utf8-text.js';

/** Largest input file the CLI reads, in bytes: 64 MiB. */
export const MAX_INPUT_BYTES = 67_108_864; // → 'PALISADE_ERR_CLI_INPUT'

const CHUNK_BYTES = 1_048_576;

/** A file name as a refusal prints it: as given when plain, JSON-quoted otherwise. */
export function shownPath(path: string): string {
  return /^[\x21-\x7e]+$/.test(path) ? path : JSON.stringify(path);
}

function refuse(path: string, message: string): PalisadeError {
  return new PalisadeError('PALISADE_ERR_CLI_INPUT', `${shownPath(path)} ${message}`);
}

export function readInputBytes(path: string): Uint8Array {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw refuse(path, `cannot be opened (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw refuse(path, 'is a directory');
    if (stat.size > MAX_INPUT_BYTES) {
      throw refuse(path, `is ${stat.size} bytes, more than the ${MAX_INPUT_BYTES}-byte input bound`);
    }
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
      const n = readSync(fd, chunk, 0, CHUNK_BYTES, null);
      if (n === 0) break;
      total += n;
      if (total > MAX_INPUT_BYTES)
        throw refuse(path, `holds more than the ${MAX_INPUT_BYTES}-byte input bound`);
      chunks.push(chunk.subarray(0, n));
    }
    return new Uint8Array(Buffer.concat(chunks, total));
  } catch (error) {
    if (error instanceof PalisadeError) throw error;
    throw refuse(path, `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  } finally {
    closeSync(fd);
  }
}

const RULE_TEXT: Partial<Record<WireRule, string>> = {
  'invalid-utf8': 'is not valid UTF-8',
  empty: 'is empty',
  'too-deep': `nests deeper than ${MAX_JSON_DEPTH} levels`,
  'not-json': 'is not valid JSON',
  'lone-surrogate': 'holds a lone surrogate escape, which has no UTF-8 form',
};

/** The file's bytes as a JSON object, under the bounds above. */
export function readJsonObject(path: string): Record<string, unknown> {
  const bytes = readInputBytes(path);
  const value = bytes.length <= MAX_MESSAGE_BYTES ? readSmall(path, bytes) : readLarge(path, bytes);
  if (!isPlainObject(value)) throw refuse(path, 'is not a JSON object');
  return value;
}

function readSmall(path: string, bytes: Uint8Array): unknown {
  const read = readJsonValue(bytes);
  if (read.ok) return read.value;
  if (read.refusal.rule === 'repeated-key') throw repeated(path, bytes);
  throw refuse(path, RULE_TEXT[read.refusal.rule] ?? `is refused (${read.refusal.rule})`);
}

// The wire reader's steps in its order, without its message bound.
function readLarge(path: string, bytes: Uint8Array): unknown {
  const text = decodeUtf8(bytes);
  if (text === undefined) throw refuse(path, RULE_TEXT['invalid-utf8']!);
  const scan = scanJson(text);
  if (scan.kind !== 'scanned') throw refuse(path, RULE_TEXT[scan.kind]!);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw refuse(path, RULE_TEXT['not-json']!);
  }
  if (scan.loneSurrogate) throw refuse(path, RULE_TEXT['lone-surrogate']!);
  if (scan.keysCompared ? scan.repeatedKey : scan.keys > 1 && countParsedKeys(value) !== scan.keys) {
    throw repeated(path, bytes);
  }
  return value;
}

function repeated(path: string, bytes: Uint8Array): PalisadeError {
  const key = findRepeatedKey(decodeUtf8(bytes) ?? '');
  return refuse(path, key === undefined ? 'repeats a key' : `repeats the key ${renderRefusalKey(key)}`);
}
