// INTERIM (lead): minimal strict matcher so the core can be exercised; the uri-template helper replaces this file.
import { PalisadeError } from '../errors.js';

export interface UriTemplate {
  readonly source: string;
  readonly variables: readonly { name: string; reserved: boolean }[];
  match(uri: string): Record<string, string> | undefined;
}

type Part = { literal: string } | { name: string; reserved: boolean };

const decoder = new TextDecoder('utf-8', { fatal: true });

function decode(raw: string): string | undefined {
  if (/%(?![0-9A-Fa-f]{2})/.test(raw)) return undefined;
  const bytes: number[] = [];
  for (let i = 0; i < raw.length; i += 1) {
    if (raw[i] === '%') {
      bytes.push(Number.parseInt(raw.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      for (const byte of Buffer.from(raw[i]!, 'utf8')) bytes.push(byte);
    }
  }
  try {
    const text = decoder.decode(Uint8Array.from(bytes));
    return /[\u0000-\u001f\u007f]/.test(text) ? undefined : text;
  } catch {
    return undefined;
  }
}

export function parseUriTemplate(template: string): UriTemplate {
  const parts: Part[] = [];
  const seen = new Set<string>();
  let rest = template;
  while (rest.length > 0) {
    const open = rest.indexOf('{');
    const close = rest.indexOf('}');
    if (open === -1) {
      if (close !== -1) throw new PalisadeError('PALISADE_ERR_URI_TEMPLATE', `template ${JSON.stringify(template)} has a stray }`);
      parts.push({ literal: rest });
      break;
    }
    if (open > 0) parts.push({ literal: rest.slice(0, open) });
    const end = rest.indexOf('}', open);
    if (end === -1) throw new PalisadeError('PALISADE_ERR_URI_TEMPLATE', `template ${JSON.stringify(template)} has an unclosed {`);
    const expression = rest.slice(open + 1, end);
    const reserved = expression.startsWith('+');
    const name = reserved ? expression.slice(1) : expression;
    if (!/^[A-Za-z0-9_]+$/.test(name) || seen.has(name)) {
      throw new PalisadeError('PALISADE_ERR_URI_TEMPLATE', `template ${JSON.stringify(template)} uses an expression Palisade does not match`);
    }
    const previous = parts.at(-1);
    if (previous !== undefined && 'name' in previous) {
      throw new PalisadeError('PALISADE_ERR_URI_TEMPLATE', `template ${JSON.stringify(template)} has two expressions with no literal between`);
    }
    seen.add(name);
    parts.push({ name, reserved });
    rest = rest.slice(end + 1);
  }
  return {
    source: template,
    variables: parts.filter((part): part is { name: string; reserved: boolean } => 'name' in part),
    match(uri) {
      const values: Record<string, string> = {};
      let at = 0;
      for (let index = 0; index < parts.length; index += 1) {
        const part = parts[index]!;
        if ('literal' in part) {
          if (!uri.startsWith(part.literal, at)) return undefined;
          at += part.literal.length;
          continue;
        }
        const next = parts[index + 1];
        const end = next === undefined ? uri.length : uri.indexOf((next as { literal: string }).literal, at);
        if (end === -1 || end === at) return undefined;
        const raw = uri.slice(at, end);
        if (!part.reserved && /[/?#]/.test(raw)) return undefined;
        const value = decode(raw);
        if (value === undefined) return undefined;
        if (!part.reserved && value.includes('/')) return undefined;
        if (part.reserved && (value.includes('\\') || value.split('/').some((s) => s === '.' || s === '..'))) return undefined;
        values[part.name] = value;
        at = end;
      }
      return at === uri.length ? values : undefined;
    },
  };
}
