/**
 * Puts the host's content into wire shape. Palisade never interprets what a tool returns: text
 * goes out as it is and a base64 string is not re-encoded. It only checks the shape the
 * protocol needs (a malformed block is a host fault) and base64-encodes bytes given as a
 * `Uint8Array`.
 */
import { isPlainObject } from '../options.js';
import { HostFault } from './host-fault.js';
import type { JsonObject } from './types.js';

function binary(value: unknown, where: string): string {
  if (value instanceof Uint8Array)
    return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
  if (typeof value === 'string') return value;
  throw new HostFault(`${where} must be a Uint8Array or a base64 string`);
}

function requireHostString(value: unknown, where: string): string {
  if (typeof value !== 'string') throw new HostFault(`${where} must be a string`);
  return value;
}

function object(value: unknown, where: string): JsonObject {
  if (!isPlainObject(value)) throw new HostFault(`${where} must be a plain object`);
  return value;
}

export function resourceContents(value: unknown, where: string): JsonObject {
  const contents = object(value, where);
  requireHostString(contents['uri'], `${where}.uri`);
  if (contents['mimeType'] !== undefined) requireHostString(contents['mimeType'], `${where}.mimeType`);
  const hasText = contents['text'] !== undefined;
  const hasBlob = contents['blob'] !== undefined;
  if (hasText === hasBlob) throw new HostFault(`${where} must have exactly one of text and blob`);
  if (hasText) {
    requireHostString(contents['text'], `${where}.text`);
    return contents;
  }
  return { ...contents, blob: binary(contents['blob'], `${where}.blob`) };
}

export function contentBlock(value: unknown, where: string): JsonObject {
  const block = object(value, where);
  switch (block['type']) {
    case 'text':
      requireHostString(block['text'], `${where}.text`);
      return block;
    case 'image':
    case 'audio':
      requireHostString(block['mimeType'], `${where}.mimeType`);
      return { ...block, data: binary(block['data'], `${where}.data`) };
    case 'resource_link':
      requireHostString(block['uri'], `${where}.uri`);
      requireHostString(block['name'], `${where}.name`);
      return block;
    case 'resource':
      return { ...block, resource: resourceContents(block['resource'], `${where}.resource`) };
    default:
      throw new HostFault(`${where}.type must be text, image, audio, resource_link or resource`);
  }
}

export function contentBlocks(value: unknown, where: string): JsonObject[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new HostFault(`${where} must be an array`);
  return value.map((block, index) => contentBlock(block, `${where}[${index}]`));
}
