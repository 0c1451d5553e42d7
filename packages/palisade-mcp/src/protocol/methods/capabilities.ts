/**
 * The capabilities a server advertises: only keys the revision's schema defines (its table's
 * `capabilities`), and only what this server can deliver on that revision and transport.
 *
 * - `listChanged` and `subscribe` follow what the host declared in `notifications`: a host that
 *   never announces a change does not claim to. They are delivered on a 2026-07-28
 *   `subscriptions/listen` stream (any transport) and on a handshake connection over stdio.
 * - A stateless handshake revision over HTTP has neither: no session outlives a POST and the GET
 *   stream is 405, so nothing could carry a change. Both are advertised `false` there. An HTTP
 *   session (the `sessions` option) carries them on its GET stream, so they follow the host there.
 * - `logging` is advertised on every revision: a handler's `ctx.log` reaches the request's own
 *   stream (2026-07-28: at the level the request's `_meta` names; a handshake revision: at the
 *   level set by `logging/setLevel` on stdio, else the server's `defaultLogLevel`).
 * - `completions` where the revision defines it (2024-11-05 defines the method, not the key).
 */
import type { JsonObject } from '../../catalog/types.js';
import type { Revision } from '../../revisions.js';
import { profileOf, type Transport } from '../revisions/index.js';
import { shapeCapabilities } from '../revisions/shape.js';
import type { Server } from '../server-shape.js';
import { TASKS_EXTENSION } from '../tasks/negotiation.js';

export function capabilities(
  server: Server,
  revision: Revision,
  transport: Transport,
  session = false,
): JsonObject {
  const { catalog } = server;
  const profile = profileOf(revision);
  const declared = server.changes.declared;
  const delivers = profile.era === 'stateless' || transport === 'stdio' || session;
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
  // The tasks extension is 2026-07-28's (SEP-2663), under `extensions`, which only that revision
  // defines; 2025-11-25's own `tasks` capability is not implemented, so it is never built here.
  if (server.tasks !== undefined) advertised['extensions'] = { [TASKS_EXTENSION]: {} };
  return shapeCapabilities(profile, advertised);
}
