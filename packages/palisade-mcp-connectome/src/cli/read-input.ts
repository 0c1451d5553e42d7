/**
 * Reading an input file of the CLI: a JSON document a host exported (a graph, a sidecar, a diff
 * record). The file is read under a byte bound, counted while reading (a file may grow, or be a
 * FIFO with no size), and parsed with the wire's checks: strict UTF-8, nesting depth, a lone
 * surrogate escape, a repeated key, by the wire's own reader without its 1 MiB message bound
 * (`readJsonDocument`). Every refusal names the file and the rule.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { MAX_JSON_DEPTH, readJsonDocument, repeatedKeyOf, type WireRule } from 'palisade-mcp/wire';
import { ConnectomeError } from '../errors.js';
import { isPlainObject } from '../options.js';

/** Largest input file the CLI reads, in bytes: 64 MiB. */
export const MAX_INPUT_BYTES = 67_108_864; // → 'PALISADE_ERR_CLI_INPUT'

const CHUNK_BYTES = 1_048_576;

/** A file name as a refusal prints it: as given when plain, JSON-quoted otherwise. */
export function shownPath(path: string): string {
  return /^[\x21-\x7e]+$/.test(path) ? path : JSON.stringify(path);
}

function refuse(path: string, message: string): ConnectomeError {
  return new ConnectomeError('PALISADE_ERR_CLI_INPUT', `${shownPath(path)} ${message}`);
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
    if (error instanceof ConnectomeError) throw error;
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
  const read = readJsonDocument(bytes);
  if (!read.ok) {
    if (read.refusal.rule === 'repeated-key') throw repeated(path, bytes);
    throw refuse(path, RULE_TEXT[read.refusal.rule] ?? `is refused (${read.refusal.rule})`);
  }
  if (!isPlainObject(read.value)) throw refuse(path, 'is not a JSON object');
  return read.value;
}

function repeated(path: string, bytes: Uint8Array): ConnectomeError {
  const key = repeatedKeyOf(bytes);
  return refuse(path, key === undefined ? 'repeats a key' : `repeats the key ${key}`);
}
