/**
 * What one MCP revision lets a server send, as data: one table per revision (the files beside
 * this one), each read off that revision's `schema.json`, and read by the core wherever revisions
 * differ. A member a revision's schema does not define is not sent under it; a content block it
 * does not define is left out; a capability it does not define is not advertised.
 * test/protocol/revision-profiles.test.ts holds every table to its schema.
 */
import type { Revision } from '../../revisions.js';
import type { INVALID_PARAMS, RESOURCE_NOT_FOUND } from '../../wire/codes.js';

export type Transport = 'stdio' | 'http';

/** Members of the objects Palisade sends that differ between revisions, by schema definition. */
export interface RevisionFields {
  /** `Tool` (never `execution`: Palisade does not implement 2025-11-25's tasks). */
  readonly tool: readonly string[];
  /** `ToolAnnotations`; empty where `Tool` has no `annotations`. */
  readonly toolAnnotations: readonly string[];
  readonly resource: readonly string[];
  readonly resourceTemplate: readonly string[];
  readonly prompt: readonly string[];
  readonly promptArgument: readonly string[];
  /** `Implementation`, the `serverInfo` of `initialize`. */
  readonly implementation: readonly string[];
  /** `Annotations` on content, resources and templates (2024-11-05: the inline object of `Annotated`). */
  readonly annotations: readonly string[];
  /** `TextResourceContents` and `BlobResourceContents` together (a contents has `text` or `blob`, never both). */
  readonly resourceContents: readonly string[];
  /** The params of `notifications/progress`. */
  readonly progress: readonly string[];
}

export interface RevisionProfile {
  readonly revision: Revision;
  /** `stateless`: each request names its revision in `_meta`. `handshake`: `initialize` fixes it. */
  readonly era: 'stateless' | 'handshake';
  /** The transports it is served over: 2024-11-05 defined HTTP+SSE, which Palisade does not serve. */
  readonly transports: readonly Transport[];
  /** Its Streamable HTTP transport defines the `MCP-Protocol-Version` header (2025-06-18 on). */
  readonly versionHeader: boolean;
  /** The client requests Palisade answers under it, `initialize` aside; any other is -32601. */
  readonly methods: ReadonlySet<string>;
  readonly fields: RevisionFields;
  /** The content blocks it defines, by `type`, with the members of each. */
  readonly content: ReadonlyMap<string, readonly string[]>;
  /** The top-level `ServerCapabilities` keys it defines. */
  readonly capabilities: ReadonlySet<string>;
  /** `structuredContent` on a tool result: any JSON value, a JSON object only, or not defined. */
  readonly structuredContent: 'any' | 'object' | 'none';
  /** `outputSchema` on a tool: any schema, one whose root is an object, or not defined. */
  readonly outputSchema: 'any' | 'object-root' | 'none';
  /** The error a `resources/read` of a URI nobody serves is answered with. */
  readonly resourceNotFound: typeof RESOURCE_NOT_FOUND | typeof INVALID_PARAMS;
  /**
   * Whether a result needs shaping under this revision: false when it defines every member and
   * content block Palisade's types can carry (the newest two), so their hot path copies nothing.
   */
  readonly narrows: boolean;
}

/** Everything Palisade's own types (catalog/types.ts) can carry; a revision defining all of it is not narrowed. */
const WIDEST_CONTENT: ReadonlyMap<string, readonly string[]> = new Map([
  ['text', ['type', 'text', 'annotations', '_meta']],
  ['image', ['type', 'data', 'mimeType', 'annotations', '_meta']],
  ['audio', ['type', 'data', 'mimeType', 'annotations', '_meta']],
  [
    'resource_link',
    ['type', 'uri', 'name', 'title', 'description', 'mimeType', 'size', 'icons', 'annotations', '_meta'],
  ],
  ['resource', ['type', 'resource', 'annotations', '_meta']],
]);
const WIDEST_FIELDS: RevisionFields = {
  tool: ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations', 'icons', '_meta'],
  toolAnnotations: ['title', 'readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'],
  resource: ['uri', 'name', 'title', 'description', 'mimeType', 'size', 'annotations', 'icons', '_meta'],
  resourceTemplate: [
    'uriTemplate',
    'name',
    'title',
    'description',
    'mimeType',
    'annotations',
    'icons',
    '_meta',
  ],
  prompt: ['name', 'title', 'description', 'arguments', 'icons', '_meta'],
  promptArgument: ['name', 'title', 'description', 'required'],
  implementation: ['name', 'title', 'version'],
  annotations: ['audience', 'priority', 'lastModified'],
  resourceContents: ['uri', 'mimeType', 'text', 'blob', '_meta'],
  progress: ['progressToken', 'progress', 'total', 'message'],
};

function covers(defined: readonly string[] | undefined, members: readonly string[]): boolean {
  return defined !== undefined && members.every((member) => defined.includes(member));
}

/** Whether the revision defines every member and block Palisade can send. */
function definesWidest(fields: RevisionFields, content: ReadonlyMap<string, readonly string[]>): boolean {
  return (
    (Object.keys(WIDEST_FIELDS) as (keyof RevisionFields)[]).every((key) =>
      covers(fields[key], WIDEST_FIELDS[key]),
    ) && [...WIDEST_CONTENT].every(([type, members]) => covers(content.get(type), members))
  );
}

export interface ProfileTable
  extends Omit<RevisionProfile, 'narrows' | 'methods' | 'capabilities' | 'content'> {
  readonly methods: readonly string[];
  readonly capabilities: readonly string[];
  readonly content: Readonly<Record<string, readonly string[]>>;
}

/** A revision's table, frozen, with `narrows` derived from it rather than stated beside it. */
export function defineProfile(table: ProfileTable): RevisionProfile {
  const content = new Map(
    Object.entries(table.content).map(([type, members]) => [type, Object.freeze([...members])]),
  );
  const fields = Object.freeze(
    Object.fromEntries(
      Object.entries(table.fields).map(([key, members]) => [key, Object.freeze([...members])]),
    ),
  ) as unknown as RevisionFields;
  return Object.freeze({
    ...table,
    transports: Object.freeze([...table.transports]),
    methods: new Set(table.methods),
    fields,
    content,
    capabilities: new Set(table.capabilities),
    narrows: !definesWidest(fields, content),
  });
}
