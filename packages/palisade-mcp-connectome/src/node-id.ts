/**
 * The one function that writes a node id. An id is structural: derived from what the node is,
 * never from a counter or an insertion order, so two builds of one system agree and a diff can
 * line them up. Ids are compared and hashed as strings and are never parsed back.
 *
 * Shape: the server name, then the identity's tag, then its parts, each component escaped (`%`
 * to `%25` first, so an escape cannot be forged, then `/` to `%2F`) and joined by `/`. NFC is
 * the canonical encoder's business, not this function's.
 */
import { ConnectomeError } from './errors.js';
import type { LabelObject } from './label-value.js';
import { requireWellFormed } from './text-order.js';
import type { Level, NodeKind } from './vocabulary.js';

export type NodeIdentity =
  | { readonly kind: 'server' }
  | { readonly kind: 'tool' | 'prompt' | 'process'; readonly name: string }
  | { readonly kind: 'resource'; readonly uri: string }
  /**
   * A resource template, by its RFC 6570 text. Its own tag, because a catalog may list a concrete
   * resource whose URI is the same string, and the two are different parts.
   */
  | { readonly kind: 'resource_template'; readonly uriTemplate: string }
  /** Code at module level: the module as the host prints it (a path or package specifier). */
  | { readonly kind: 'module'; readonly module: string }
  /** Code at function level: the module, then the function's name within it. */
  | { readonly kind: 'function'; readonly module: string; readonly name: string }
  /** A group of modules; `source` says what grouped them (e.g. `package`, or a host's `boundary` map). */
  | { readonly kind: 'boundary'; readonly source: string; readonly name: string };

export function nodeId(server: string, identity: NodeIdentity): string {
  return [server, ...parts(identity)]
    .map((part, i) => escapeComponent(component(part, i === 0 ? 'server' : 'identity')))
    .join('/');
}

/** A node input whose id comes from `nodeId` and whose kind and level follow from the identity. */
export function identifiedNode(
  server: string,
  identity: NodeIdentity,
  labels: LabelObject = {},
): { id: string; kind: NodeKind; level: Level; labels: LabelObject } {
  const id = nodeId(server, identity);
  switch (identity.kind) {
    case 'function':
      return { id, kind: 'module', level: 'function', labels };
    case 'module':
      return { id, kind: 'module', level: 'module', labels };
    case 'boundary':
      return { id, kind: 'module', level: 'boundary', labels };
    case 'resource_template':
      return { id, kind: 'resource', level: 'server', labels };
    default:
      // Catalog entries, the server and a named process are parts of the running system, not
      // code, so they sit at the coarsest level.
      return { id, kind: identity.kind, level: 'server', labels };
  }
}

function parts(identity: NodeIdentity): unknown[] {
  if (typeof identity !== 'object' || identity === null) return invalid(identity);
  switch (identity.kind) {
    case 'server':
      return ['server'];
    case 'tool':
    case 'prompt':
    case 'process':
      return [identity.kind, identity.name];
    case 'resource':
      return ['resource', identity.uri];
    case 'resource_template':
      return ['resource_template', identity.uriTemplate];
    case 'module':
      return ['module', identity.module];
    case 'function':
      return ['module', identity.module, identity.name];
    case 'boundary':
      return ['boundary', identity.source, identity.name];
    default:
      return invalid(identity);
  }
}

function invalid(identity: unknown): never {
  throw new ConnectomeError(
    'PALISADE_ERR_CONNECTOME_INVALID',
    `not a node identity: ${JSON.stringify(identity) ?? String(identity)}`,
  );
}

function component(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.length === 0) {
    throw new ConnectomeError(
      'PALISADE_ERR_CONNECTOME_INVALID',
      `a node id's ${what} component must be a non-empty string`,
    );
  }
  requireWellFormed(value, `node id component ${JSON.stringify(value)}`);
  return value;
}

function escapeComponent(value: string): string {
  return value.replaceAll('%', '%25').replaceAll('/', '%2F');
}
