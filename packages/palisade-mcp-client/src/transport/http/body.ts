/**
 * A response body read under a byte bound: the Content-Length is believed only to refuse early,
 * the bytes are counted as they arrive, and the read stops (the stream is destroyed) the moment
 * the bound is crossed, so a 1 GiB answer costs no more than the bound.
 */
import type { Dispatcher } from 'undici';
import { ClientError } from '../../errors.js';

type Body = Dispatcher.ResponseData['body'];

export function tooLarge(max: number): ClientError {
  return new ClientError('PALISADE_CLIENT_ERR_MESSAGE_REFUSED', `a response body exceeded ${max} bytes`, {
    rule: 'too-large',
  });
}

export async function readBounded(
  body: Body,
  headers: Readonly<Record<string, string | string[] | undefined>>,
  max: number,
): Promise<Uint8Array> {
  const declared = headers['content-length'];
  if (typeof declared === 'string' && /^[0-9]{1,15}$/.test(declared) && Number(declared) > max) {
    body.destroy();
    throw tooLarge(max);
  }
  const parts: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > max) {
        body.destroy();
        throw tooLarge(max);
      }
      parts.push(chunk);
    }
  } catch (error) {
    if (error instanceof ClientError) throw error;
    throw new ClientError('PALISADE_CLIENT_ERR_TRANSPORT', 'the response body ended in an error', {
      cause: error,
    });
  }
  return parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, total);
}

/** The media type of a Content-Type header, lower-cased, without parameters. */
export function mediaType(headers: Readonly<Record<string, string | string[] | undefined>>): string {
  const value = headers['content-type'];
  const text = Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
  return text.split(';', 1)[0]?.trim().toLowerCase() ?? '';
}
