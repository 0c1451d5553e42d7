/**
 * The MCP schema of each revision (test/fixtures/spec/schema/), read once, with the few questions
 * the revision tests ask of them: a definition by name (a `$ref` followed), the property names of
 * one, and which definition a method or a content type belongs to.
 */
import { readFileSync } from 'node:fs';

export type SchemaNode = { readonly [key: string]: unknown };

export const SCHEMA_REVISIONS = [
  '2026-07-28',
  '2025-11-25',
  '2025-06-18',
  '2025-03-26',
  '2024-11-05',
] as const;
export type SchemaRevision = (typeof SCHEMA_REVISIONS)[number];

const documents = new Map<string, SchemaNode>();

/** The whole document, as published. */
export function schemaDocument(revision: SchemaRevision): SchemaNode {
  let document = documents.get(revision);
  if (document === undefined) {
    const url = new URL(`../fixtures/spec/schema/${revision}.schema.json`, import.meta.url);
    document = JSON.parse(readFileSync(url, 'utf8')) as SchemaNode;
    documents.set(revision, document);
  }
  return document;
}

/** `definitions` (draft-07) or `$defs` (2020-12). */
export function definitions(revision: SchemaRevision): Readonly<Record<string, SchemaNode>> {
  const document = schemaDocument(revision);
  return (document['$defs'] ?? document['definitions']) as Record<string, SchemaNode>;
}

/** A node with its `$ref` (one level, `#/definitions/X` or `#/$defs/X`) followed. */
export function resolve(revision: SchemaRevision, node: SchemaNode): SchemaNode {
  const ref = node['$ref'];
  if (typeof ref !== 'string') return node;
  const name = ref.slice(ref.lastIndexOf('/') + 1);
  const found = definitions(revision)[name];
  if (found === undefined) throw new Error(`${revision}: ${ref} does not resolve`);
  return found;
}

/** The definition `name`, or undefined when the revision has none by that name. */
export function definition(revision: SchemaRevision, name: string): SchemaNode | undefined {
  return definitions(revision)[name];
}

/** The property names of a node, sorted; [] when it names none. */
export function propertyNames(revision: SchemaRevision, node: SchemaNode | undefined): string[] {
  if (node === undefined) return [];
  const properties = resolve(revision, node)['properties'];
  return typeof properties === 'object' && properties !== null ? Object.keys(properties).sort() : [];
}

/** The property `member` of a definition, `$ref` followed; undefined when not defined. */
export function propertyOf(
  revision: SchemaRevision,
  node: SchemaNode | undefined,
  member: string,
): SchemaNode | undefined {
  if (node === undefined) return undefined;
  const properties = resolve(revision, node)['properties'] as Record<string, SchemaNode> | undefined;
  const found = properties?.[member];
  return found === undefined ? undefined : resolve(revision, found);
}

/** The definitions a union (`anyOf` of `$ref`s) names, by name. */
export function unionMembers(revision: SchemaRevision, node: SchemaNode | undefined): string[] {
  const members =
    node === undefined ? undefined : (resolve(revision, node)['anyOf'] as SchemaNode[] | undefined);
  return (members ?? []).map((member) => {
    const ref = member['$ref'];
    if (typeof ref !== 'string') throw new Error(`${revision}: a union member without $ref`);
    return ref.slice(ref.lastIndexOf('/') + 1);
  });
}

/** A definition's `const` for `member` (`method` of a request, `type` of a content block). */
export function constOf(revision: SchemaRevision, name: string, member: string): unknown {
  return propertyOf(revision, definition(revision, name), member)?.['const'];
}

/** The methods of the requests a client may send (`ClientRequest`), sorted. */
export function clientRequestMethods(revision: SchemaRevision): string[] {
  return unionMembers(revision, definition(revision, 'ClientRequest'))
    .map((name) => constOf(revision, name, 'method') as string)
    .sort();
}

/** Content block definitions by `type`: those a tool result may carry. */
export function contentDefinitions(revision: SchemaRevision): Map<string, string> {
  const items = propertyOf(revision, definition(revision, 'CallToolResult'), 'content')?.['items'] as
    | SchemaNode
    | undefined;
  const union = items === undefined ? [] : unionMembers(revision, items);
  // From 2025-06-18 the items are one `ContentBlock` definition, itself the union.
  const names = union.length > 0 ? union : unionMembers(revision, definition(revision, 'ContentBlock'));
  return new Map(names.map((name) => [constOf(revision, name, 'type') as string, name]));
}
