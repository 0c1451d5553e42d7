/**
 * The capabilities a server advertises: only keys the revision's schema defines, and only for
 * what this catalog can deliver. `listChanged` and `subscribe` are false because a catalog is
 * fixed at construction; nothing is advertised that is not served.
 */
import type { JsonObject } from '../../catalog/types.js';
import type { Server } from '../server-shape.js';

export function capabilities(server: Server): JsonObject {
  const { catalog } = server;
  const advertised: JsonObject = {};
  if (catalog.tools !== undefined) advertised['tools'] = { listChanged: false };
  if (catalog.resources !== undefined) advertised['resources'] = { subscribe: false, listChanged: false };
  if (catalog.prompts !== undefined) advertised['prompts'] = { listChanged: false };
  if (catalog.completions) advertised['completions'] = {};
  return advertised;
}
