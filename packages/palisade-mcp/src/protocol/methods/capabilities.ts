/**
 * The capabilities a server advertises: only keys the revision's schema defines, and only what
 * this server can deliver on that revision and transport.
 *
 * - `listChanged` and `subscribe` follow what the host declared in `notifications`: a host that
 *   never announces a change does not claim to. They are delivered on a 2026-07-28
 *   `subscriptions/listen` stream (any transport) and on a 2025-11-25 stdio connection.
 * - Stateless 2025-11-25 over HTTP has neither: no session outlives a POST and the GET stream is
 *   405, so nothing could carry a change. Both are advertised `false` there.
 * - `logging` is advertised on both revisions: a handler's `ctx.log` reaches the request's own
 *   stream (2026-07-28: at the level the request's `_meta` names; 2025-11-25: at the level set by
 *   `logging/setLevel` on stdio, else the server's `defaultLogLevel`).
 */
import type { JsonObject } from '../../catalog/types.js';
import { LEGACY_REVISION, type Revision } from '../../revisions.js';
import type { Server } from '../server-shape.js';
import { TASKS_EXTENSION } from '../tasks/negotiation.js';

export function capabilities(server: Server, revision: Revision, transport: 'stdio' | 'http'): JsonObject {
  const { catalog } = server;
  const declared = server.changes.declared;
  const delivers = revision !== LEGACY_REVISION || transport === 'stdio';
  const advertised: JsonObject = {};
  if (catalog.tools !== undefined)
    advertised['tools'] = { listChanged: delivers && declared.toolsListChanged };
  if (catalog.resources !== undefined)
    advertised['resources'] = {
      subscribe: delivers && declared.resourceSubscriptions,
      listChanged: delivers && declared.resourcesListChanged,
    };
  if (catalog.prompts !== undefined)
    advertised['prompts'] = { listChanged: delivers && declared.promptsListChanged };
  advertised['logging'] = {};
  if (catalog.completions) advertised['completions'] = {};
  // The tasks extension is 2026-07-28's (SEP-2663); 2025-11-25's own `tasks` capability is not implemented.
  if (server.tasks !== undefined && revision !== LEGACY_REVISION)
    advertised['extensions'] = { [TASKS_EXTENSION]: {} };
  return advertised;
}
