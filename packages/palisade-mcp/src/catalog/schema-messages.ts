/**
 * What a client is told when its arguments fail a schema. The message goes back inside a tool
 * result, so it is built from the failing keyword and the schema's own parameters (a type, a
 * limit, a required name: the schema is public, it is advertised) and never from the client's
 * values. The client's keys appear in two places, the instance path and the name of an extra
 * property; each is cut to MAX_REFUSAL_KEY_CHARS code units and escaped, with anything outside
 * printable ASCII written as `\uXXXX`, so a cut is marked with a `…` that cannot be the client's.
 *
 * Shape: `<path> <rule>`, where path is a JSON Pointer (`/items/0/name`) or `(root)`.
 */
import type { ErrorObject } from 'ajv/dist/2020.js';
import { MAX_REFUSAL_KEY_CHARS } from '../limits.js';
import { escapeText } from '../quote.js';

const COMPARISONS = new Set(['<', '<=', '>', '>=']);

/** The first MAX_REFUSAL_KEY_CHARS code units of a client's key, escaped, marked if cut. */
function clientKey(key: string): { text: string; cut: boolean } {
  if (key.length <= MAX_REFUSAL_KEY_CHARS) return { text: escapeText(key), cut: false };
  return { text: escapeText(key.slice(0, MAX_REFUSAL_KEY_CHARS)), cut: true };
}

/** A client-chosen name, quoted: `"abc"`, or `"abc"…` when cut. */
function quotedClientKey(value: unknown): string {
  const { text, cut } = clientKey(String(value));
  return `"${text}"${cut ? '…' : ''}`;
}

/** A schema-side name, quoted; it is the host's, and already public in the advertised schema. */
function quoted(value: unknown): string {
  return `"${escapeText(String(value))}"`;
}

function decodeSegment(segment: string): string {
  return segment.replaceAll('~1', '/').replaceAll('~0', '~');
}

/** Ajv's instance path, re-encoded segment by segment with each one bounded. */
export function describeInstancePath(instancePath: string): string {
  if (instancePath === '') return '(root)';
  let out = '';
  for (const segment of instancePath.split('/').slice(1)) {
    const { text, cut } = clientKey(decodeSegment(segment));
    out += `/${text.replaceAll('~', '~0').replaceAll('/', '~1')}${cut ? '…' : ''}`;
  }
  return out;
}

function limit(params: Record<string, unknown>, name: string): string {
  const value = params[name];
  return typeof value === 'number' ? String(value) : '?';
}

/** The rule an Ajv error reports, from its keyword and the schema-side parameters only. */
function describeRule(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type': {
      const types = Array.isArray(params['type']) ? params['type'] : [params['type']];
      return `must be ${types.map(String).join(' or ')}`;
    }
    case 'required':
      return `must have required property ${quoted(params['missingProperty'])}`;
    case 'dependentRequired':
      return `must have property ${quoted(params['missingProperty'])} when property ${quoted(params['property'])} is present`;
    case 'additionalProperties':
      return `must NOT have additional property ${quotedClientKey(params['additionalProperty'])}`;
    case 'unevaluatedProperties':
      return `must NOT have unevaluated property ${quotedClientKey(params['unevaluatedProperty'])}`;
    case 'propertyNames':
      return `must NOT have property name ${quotedClientKey(params['propertyName'])}`;
    case 'items':
    case 'unevaluatedItems':
    case 'maxItems':
      return `must NOT have more than ${limit(params, 'limit')} items`;
    case 'minItems':
      return `must NOT have fewer than ${limit(params, 'limit')} items`;
    case 'maxLength':
      return `must NOT have more than ${limit(params, 'limit')} characters`;
    case 'minLength':
      return `must NOT have fewer than ${limit(params, 'limit')} characters`;
    case 'maxProperties':
      return `must NOT have more than ${limit(params, 'limit')} properties`;
    case 'minProperties':
      return `must NOT have fewer than ${limit(params, 'limit')} properties`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum': {
      const comparison = String(params['comparison']);
      return `must be ${COMPARISONS.has(comparison) ? comparison : error.keyword} ${limit(params, 'limit')}`;
    }
    case 'multipleOf':
      return `must be a multiple of ${limit(params, 'multipleOf')}`;
    case 'pattern':
      return `must match pattern ${quoted(params['pattern'])}`;
    case 'format':
      return `must match format ${quoted(params['format'])}`;
    case 'uniqueItems':
      return 'must NOT have duplicate items';
    case 'const':
      return 'must be equal to the constant';
    case 'enum':
      return 'must be equal to one of the allowed values';
    case 'contains':
      return typeof params['maxContains'] === 'number'
        ? `must contain at least ${limit(params, 'minContains')} and no more than ${limit(params, 'maxContains')} valid items`
        : `must contain at least ${limit(params, 'minContains')} valid items`;
    case 'not':
      return 'must NOT be valid against "not"';
    case 'anyOf':
      return 'must match a schema in anyOf';
    case 'oneOf':
      return 'must match exactly one schema in oneOf';
    case 'if':
      return `must match the ${quoted(params['failingKeyword'])} schema`;
    case 'false schema':
      return 'is not allowed (false schema)';
    default:
      return `fails ${quoted(error.keyword)}`;
  }
}

/**
 * The refusal for a failed validation. Ajv stops at the first failure; when that failure is
 * inside a composition (`anyOf`, `if`, `propertyNames`), the last error is the composition's
 * own, which names the rule the client actually broke.
 */
export function describeValidationError(errors: readonly ErrorObject[] | null | undefined): string {
  const error = errors?.[errors.length - 1];
  if (error === undefined) return '(root) does not match the schema';
  return `${describeInstancePath(error.instancePath)} ${describeRule(error)}`;
}
