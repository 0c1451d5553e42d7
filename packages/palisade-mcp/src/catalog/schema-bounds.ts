/**
 * The first step of compiling a host schema: copy it as plain JSON data, inside its bounds, and
 * freeze the copy. The copy is what is advertised and what Ajv compiles, so the host cannot
 * change either afterwards, and nothing the host object does (a getter, a prototype, a later
 * mutation) can make the two differ.
 *
 * Plain JSON data means: null, booleans, finite numbers, strings, arrays without holes or extra
 * properties, and objects whose prototype is `Object.prototype` or null with enumerable own
 * data properties keyed by strings. Anything else (a function, `undefined`, a symbol, a bigint,
 * NaN or Infinity, a class instance, an accessor, a cycle) is refused: it cannot be advertised
 * as JSON and enforced as the same thing.
 *
 * Depth counts nested arrays and objects, the root object being level 1, whether they hold
 * subschemas or data (`enum`, `const`, `default`). Size is the UTF-8 length of the serialized
 * copy. The walk is iterative, and a running lower bound on the size stops it early, so a deep,
 * huge or self-sharing host object (a DAG that doubles at each level) is refused without being
 * expanded.
 */
import { PalisadeError } from '../errors.js';
import { MAX_SCHEMA_BYTES, MAX_SCHEMA_DEPTH } from '../limits.js';
import { formatPointer } from '../wire/schema-walk.js';

type Container = unknown[] | Record<string, unknown>;

interface Frame {
  readonly source: object;
  readonly target: Container;
  readonly keys: readonly string[];
  readonly depth: number;
  readonly pointer: readonly string[];
  next: number;
}

function invalid(where: string, pointer: readonly string[], rule: string): PalisadeError {
  return new PalisadeError('PALISADE_ERR_SCHEMA_INVALID', `${where}: ${formatPointer(pointer)} ${rule}`);
}

function unsafe(where: string, rule: string): PalisadeError {
  return new PalisadeError('PALISADE_ERR_SCHEMA_UNSAFE', `${where}: ${rule}`);
}

function tooLarge(where: string): PalisadeError {
  return unsafe(where, `is larger than ${MAX_SCHEMA_BYTES} bytes serialized (MAX_SCHEMA_BYTES)`);
}

/**
 * The own keys of a plain array or object, in JSON order, after checking that every one is an
 * enumerable data property: reading `.value` from the descriptor never runs a getter.
 */
function plainKeys(value: object, where: string, pointer: readonly string[]): string[] {
  const isArray = Array.isArray(value);
  const proto = Object.getPrototypeOf(value);
  if (isArray ? proto !== Array.prototype : proto !== Object.prototype && proto !== null) {
    throw invalid(where, pointer, 'is not plain JSON data (a class instance or an exotic object)');
  }
  // Every element takes at least two bytes serialized (a value and a separator): a huge array is
  // refused before its keys are listed.
  if (isArray && (value as unknown[]).length * 2 > MAX_SCHEMA_BYTES) throw tooLarge(where);
  const own = Reflect.ownKeys(value);
  const keys: string[] = [];
  for (const key of own) {
    if (typeof key === 'symbol') throw invalid(where, pointer, 'has a symbol key, which JSON cannot carry');
    if (isArray && key === 'length') continue;
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    if (descriptor === undefined || !('value' in descriptor)) {
      throw invalid(where, [...pointer, key], 'is an accessor, not a data property');
    }
    if (!descriptor.enumerable) throw invalid(where, [...pointer, key], 'is not enumerable');
    keys.push(key);
  }
  if (isArray) {
    const length = (value as unknown[]).length;
    // Reflect.ownKeys lists array indices first, in ascending order: a hole or an extra
    // property shows as a mismatch between the keys and the indices.
    for (let index = 0; index < length; index += 1) {
      if (keys[index] !== String(index)) throw invalid(where, pointer, 'is a sparse array');
    }
    if (keys.length !== length) throw invalid(where, pointer, 'is an array with extra properties');
  }
  return keys;
}

function ownValue(source: object, key: string): unknown {
  return (Object.getOwnPropertyDescriptor(source, key) as PropertyDescriptor).value;
}

/** The lower bound, in bytes, that a leaf adds to the serialized size. */
function leafBytes(value: unknown, where: string, pointer: readonly string[]): number {
  switch (typeof value) {
    case 'string':
      // UTF-8 never takes fewer bytes than UTF-16 code units, so this never overestimates.
      return value.length + 2;
    case 'number':
      if (!Number.isFinite(value)) throw invalid(where, pointer, 'is a number JSON cannot carry');
      return String(value).length;
    case 'boolean':
      return value ? 4 : 5;
    case 'object':
      return 4; // null; containers are handled by the caller
    default:
      throw invalid(
        where,
        pointer,
        `is ${typeof value === 'undefined' ? 'undefined' : `a ${typeof value}`}, not JSON data`,
      );
  }
}

/**
 * Copies `schema` as plain JSON data, refusing it if it is not, or if it is deeper than
 * MAX_SCHEMA_DEPTH or larger than MAX_SCHEMA_BYTES serialized; returns the deep-frozen copy.
 */
export function copySchemaData(schema: unknown, where: string): Readonly<Record<string, unknown>> {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new PalisadeError('PALISADE_ERR_SCHEMA_INVALID', `${where}: must be a JSON Schema object`);
  }
  const root: Record<string, unknown> = {};
  const onPath = new Set<object>([schema]);
  const stack: Frame[] = [
    { source: schema, target: root, keys: plainKeys(schema, where, []), depth: 1, pointer: [], next: 0 },
  ];
  let bytes = 2;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.next === frame.keys.length) {
      stack.pop();
      onPath.delete(frame.source);
      Object.freeze(frame.target);
      continue;
    }
    const key = frame.keys[frame.next]!;
    frame.next += 1;
    const value = ownValue(frame.source, key);
    const pointer = [...frame.pointer, key];
    // A separator before all but the first entry and, in an object, the quoted key and colon.
    bytes += (frame.next > 1 ? 1 : 0) + (Array.isArray(frame.target) ? 0 : key.length + 3);
    let copy: unknown = value;
    if (typeof value === 'object' && value !== null) {
      if (onPath.has(value)) throw invalid(where, pointer, 'is a cycle back to an enclosing value');
      if (frame.depth + 1 > MAX_SCHEMA_DEPTH) {
        throw unsafe(
          where,
          `nests deeper than ${MAX_SCHEMA_DEPTH} levels at ${formatPointer(pointer)} (MAX_SCHEMA_DEPTH)`,
        );
      }
      const target: Container = Array.isArray(value) ? [] : {};
      onPath.add(value);
      stack.push({
        source: value,
        target,
        keys: plainKeys(value, where, pointer),
        depth: frame.depth + 1,
        pointer,
        next: 0,
      });
      bytes += 2;
      copy = target;
    } else {
      bytes += leafBytes(value, where, pointer);
    }
    if (bytes > MAX_SCHEMA_BYTES) throw tooLarge(where);
    if (Array.isArray(frame.target)) {
      frame.target.push(copy);
    } else {
      // defineProperty, not assignment: a key named `__proto__` must stay an own data property.
      Object.defineProperty(frame.target, key, {
        value: copy,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  // The running count is a lower bound; the exact size is measured once on the bounded copy.
  if (Buffer.byteLength(JSON.stringify(root), 'utf8') > MAX_SCHEMA_BYTES) throw tooLarge(where);
  return root;
}
