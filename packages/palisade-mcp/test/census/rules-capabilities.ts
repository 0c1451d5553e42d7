/**
 * The capability census: advertised keys compared with the property names each revision's schema
 * gives `ServerCapabilities`, read from the schema copies in `test/fixtures/spec/schema/`.
 */
import {
  definition,
  propertyNames,
  propertyOf,
  type SchemaNode,
  type SchemaRevision,
} from '../support/spec-schemas.js';

/** Property names, nested where the schema names the nested object's properties; null below that. */
export interface KeyTree {
  readonly [key: string]: KeyTree | null;
}

function keyTree(revision: SchemaRevision, node: SchemaNode): KeyTree | null {
  const names = propertyNames(revision, node);
  if (names.length === 0) return null;
  return Object.fromEntries(
    names.map((name) => [name, keyTree(revision, propertyOf(revision, node, name) as SchemaNode)]),
  );
}

export function definedKeys(revision: SchemaRevision): KeyTree {
  const capabilities = definition(revision, 'ServerCapabilities');
  if (capabilities === undefined) throw new Error(`${revision} defines no ServerCapabilities`);
  return keyTree(revision, capabilities) ?? {};
}

/** Every advertised key, at any depth the schema names, that the schema does not define. */
export function undefinedCapabilities(
  advertised: unknown,
  defined: KeyTree,
  path = 'capabilities',
): string[] {
  if (typeof advertised !== 'object' || advertised === null || Array.isArray(advertised)) return [];
  return Object.entries(advertised).flatMap(([key, value]) => {
    if (!Object.hasOwn(defined, key)) return [`${path}.${key} is not defined by the schema`];
    const below = defined[key];
    return below === null || below === undefined ? [] : undefinedCapabilities(value, below, `${path}.${key}`);
  });
}
