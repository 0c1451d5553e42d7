/**
 * `subscriptions/listen` (2026-07-28): a request whose answer is a stream of change
 * notifications. The filter is read under bounds and narrowed to what this server declared and
 * serves; the acknowledgement (echoing that subset) is the first message; every message carries
 * the listen request's id as `subscriptionId`; only the kinds asked for are sent. The request ends
 * when the client leaves (its signal), or gracefully with its result once the server's
 * `listenLifetimeMs` has passed, so no stream is held forever.
 *
 * Nothing here queues: a notification goes to the transport's `emit` at once, and the transport
 * bounds what an unread stream may hold (HTTP: sse-writer.ts cuts the response).
 */
import type { Catalog } from '../../catalog/catalog.js';
import type { JsonObject } from '../../catalog/types.js';
import { MAX_RESOURCE_SUBSCRIPTIONS, MAX_SUBSCRIBED_URI_BYTES } from '../../limits.js';
import { isPlainObject } from '../../options.js';
import { META_SUBSCRIPTION_ID } from '../../revisions.js';
import { SERVER_BUSY } from '../../wire/codes.js';
import {
  errorResponse,
  type JsonRpcError,
  type JsonRpcNotification,
  type RequestId,
} from '../../wire/jsonrpc.js';
import { type Change, type ChangeKind, isSubscribableUri } from '../change-hub.js';
import { invalidParams } from '../errors.js';
import type { Server } from '../server-shape.js';

const LIST_KINDS: readonly ChangeKind[] = ['toolsListChanged', 'promptsListChanged', 'resourcesListChanged'];

/** The notification each list change is announced with, on both revisions. */
export const LIST_METHODS: Readonly<Record<ChangeKind, string>> = {
  toolsListChanged: 'notifications/tools/list_changed',
  promptsListChanged: 'notifications/prompts/list_changed',
  resourcesListChanged: 'notifications/resources/list_changed',
};

/** What one listen stream will deliver: the honoured subset of what the client asked for. */
export interface Honoured {
  readonly kinds: ReadonlySet<ChangeKind>;
  readonly uris: ReadonlySet<string>;
}

/** Whether this catalog has the list a change kind announces: no list, no notification. */
export function serves(catalog: Catalog, kind: ChangeKind): boolean {
  switch (kind) {
    case 'toolsListChanged':
      return catalog.tools !== undefined;
    case 'promptsListChanged':
      return catalog.prompts !== undefined;
    case 'resourcesListChanged':
      return catalog.resources !== undefined;
  }
}

/** A URI some listed resource or template serves: a subscription to anything else would never fire. */
export function watchable(catalog: Catalog, uri: string): boolean {
  if (catalog.resources?.has(uri) === true) return true;
  return catalog.templates.some((template) => template.template.match(uri) !== undefined);
}

export type FilterReading =
  | { readonly ok: true; readonly honoured: Honoured }
  | { readonly ok: false; readonly error: JsonRpcError };

export function readFilter(server: Server, id: RequestId, params: Readonly<JsonObject>): FilterReading {
  const filter = params['notifications'];
  if (!isPlainObject(filter))
    return {
      ok: false,
      error: invalidParams(id, 'subscriptions/listen needs params.notifications as an object'),
    };
  const { declared } = server.changes;
  const kinds = new Set<ChangeKind>();
  for (const kind of LIST_KINDS) {
    const asked = filter[kind];
    if (asked !== undefined && typeof asked !== 'boolean')
      return { ok: false, error: invalidParams(id, `params.notifications.${kind} must be a boolean`) };
    if (asked === true && declared[kind] && serves(server.catalog, kind)) kinds.add(kind);
  }
  const uris = new Set<string>();
  const asked = filter['resourceSubscriptions'];
  if (asked !== undefined) {
    if (!Array.isArray(asked) || asked.length > MAX_RESOURCE_SUBSCRIPTIONS)
      return {
        ok: false,
        error: invalidParams(
          id,
          `params.notifications.resourceSubscriptions must be an array of at most ${MAX_RESOURCE_SUBSCRIPTIONS} URIs`,
        ),
      };
    for (const uri of asked) {
      if (!isSubscribableUri(uri))
        return {
          ok: false,
          error: invalidParams(
            id,
            `params.notifications.resourceSubscriptions must hold strings of at most ${MAX_SUBSCRIBED_URI_BYTES} bytes`,
          ),
        };
      if (declared.resourceSubscriptions && watchable(server.catalog, uri)) uris.add(uri);
    }
  }
  return { ok: true, honoured: { kinds, uris } };
}

function tagged(method: string, id: RequestId, params: JsonObject = {}): JsonRpcNotification {
  return { jsonrpc: '2.0', method, params: { ...params, _meta: { [META_SUBSCRIPTION_ID]: id } } };
}

export function acknowledgement(id: RequestId, honoured: Honoured): JsonRpcNotification {
  const notifications: JsonObject = {};
  for (const kind of LIST_KINDS) if (honoured.kinds.has(kind)) notifications[kind] = true;
  if (honoured.uris.size > 0) notifications['resourceSubscriptions'] = [...honoured.uris];
  return tagged('notifications/subscriptions/acknowledged', id, { notifications });
}

/** The notification a change becomes on this stream, or undefined when the client did not ask for it. */
export function notificationFor(
  change: Change,
  id: RequestId,
  honoured: Honoured,
): JsonRpcNotification | undefined {
  if (change.kind === 'resourceUpdated') {
    return honoured.uris.has(change.uri)
      ? tagged('notifications/resources/updated', id, { uri: change.uri })
      : undefined;
  }
  return honoured.kinds.has(change.kind) ? tagged(LIST_METHODS[change.kind], id) : undefined;
}

export function subscriptionLimit(id: RequestId): JsonRpcError {
  return errorResponse(id, SERVER_BUSY, 'Server busy: too many open subscriptions');
}

export interface ListenIO {
  readonly signal: AbortSignal;
  emit(notification: JsonRpcNotification): void;
}

/**
 * Runs one listen stream to its end. Resolves with the graceful result (the caller wraps it in the
 * 2026-07-28 envelope) at the lifetime, or undefined when the client left first.
 */
export function runListen(
  server: Server,
  id: RequestId,
  honoured: Honoured,
  io: ListenIO,
): { readonly refused: JsonRpcError } | { readonly ended: Promise<JsonObject | undefined> } {
  if (io.signal.aborted) return { ended: Promise.resolve(undefined) };
  let stop: (() => void) | undefined;
  const ended = new Promise<JsonObject | undefined>((resolve) => {
    const unlisten = server.changes.listen(
      (change) => {
        const notification = notificationFor(change, id, honoured);
        if (notification !== undefined) io.emit(notification);
      },
      // Changes may have been missed: the stream ends with its result, and the client lists again.
      () => finish({ _meta: { [META_SUBSCRIPTION_ID]: id } }),
    );
    if (unlisten === undefined) {
      resolve(undefined);
      return;
    }
    const timer = setTimeout(
      () => finish({ _meta: { [META_SUBSCRIPTION_ID]: id } }),
      server.changes.declared.listenLifetimeMs,
    );
    // The stream, not this timer, is what keeps a process serving.
    timer.unref();
    const onAbort = (): void => finish(undefined);
    function finish(value: JsonObject | undefined): void {
      clearTimeout(timer);
      io.signal.removeEventListener('abort', onAbort);
      unlisten?.();
      resolve(value);
    }
    io.signal.addEventListener('abort', onAbort, { once: true });
    stop = unlisten;
  });
  if (stop === undefined) return { refused: subscriptionLimit(id) };
  io.emit(acknowledgement(id, honoured));
  return { ended };
}
