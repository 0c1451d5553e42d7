/**
 * The two ways a client learns what this server is: `server/discover` (2026-07-28, stateless,
 * answered like any request once its `_meta` passed) and `initialize` (the handshake revisions,
 * which fixes a stdio process to the revision agreed).
 *
 * `initialize` never fails over the version a client asks for. The spec's rule (lifecycle,
 * "Version Negotiation", the same text from 2024-11-05 to 2025-11-25): a server that supports the
 * requested version MUST answer with it; otherwise it MUST answer with another version it
 * supports, which SHOULD be the latest it supports. So a revision served over this transport is
 * answered as asked, and any other (an unknown string, 2026-07-28, or 2024-11-05 over HTTP, whose
 * HTTP+SSE transport is not served) gets the newest handshake revision served over this
 * transport. That newest one is also the nearest useful one: a client asks for its own latest, so
 * a counter-offer it can take is one it knows, and of those the newest is the one the spec names.
 */
import type { JsonObject } from '../../catalog/types.js';
import { isPlainObject } from '../../options.js';
import { type HandshakeRevision, isHandshakeRevision, MODERN_REVISION } from '../../revisions.js';
import { UNSUPPORTED_PROTOCOL_VERSION } from '../../wire/codes.js';
import { errorResponse, type JsonRpcError, type RequestId } from '../../wire/jsonrpc.js';
import { invalidParams, MAX_ECHOED_VERSION_CHARS } from '../errors.js';
import { profileOf, servedOver, type Transport } from '../revisions/index.js';
import { shapeImplementation } from '../revisions/shape.js';
import type { Server } from '../server-shape.js';
import { type Call, type Outcome, result } from './call.js';
import { capabilities } from './capabilities.js';

export function discover(call: Call): Outcome {
  const { server } = call;
  const body: JsonObject = {
    supportedVersions: [...servedOver(server.supportedVersions, call.transport)],
    capabilities: capabilities(server, MODERN_REVISION, call.transport),
  };
  if (server.instructions !== undefined) body['instructions'] = server.instructions;
  return result(body, server.cache.discover);
}

export function unsupportedVersion(
  server: Server,
  transport: Transport,
  id: RequestId | undefined,
  requested: unknown,
  message: string,
): JsonRpcError {
  const echoed = typeof requested === 'string' ? requested.slice(0, MAX_ECHOED_VERSION_CHARS) : undefined;
  const data: JsonObject = { supported: [...servedOver(server.supportedVersions, transport)] };
  if (echoed !== undefined) data['requested'] = echoed;
  return errorResponse(id, UNSUPPORTED_PROTOCOL_VERSION, `Unsupported protocol version: ${message}`, data);
}

/** The revision `initialize` answers with, or undefined when none served here has a handshake. */
export function negotiate(
  server: Server,
  transport: Transport,
  requested: unknown,
): HandshakeRevision | undefined {
  const offered = servedOver(server.supportedVersions, transport).filter(isHandshakeRevision);
  return offered.find((revision) => revision === requested) ?? offered[0];
}

export type InitializeOutcome =
  | {
      readonly ok: true;
      readonly revision: HandshakeRevision;
      readonly result: JsonObject;
      readonly clientCapabilities: JsonObject;
    }
  | { readonly ok: false; readonly error: JsonRpcError };

export function initialize(
  server: Server,
  id: RequestId,
  params: Readonly<JsonObject>,
  transport: Transport,
  session = false,
): InitializeOutcome {
  const revision = negotiate(server, transport, params['protocolVersion']);
  if (revision === undefined) {
    return {
      ok: false,
      error: unsupportedVersion(
        server,
        transport,
        id,
        params['protocolVersion'],
        `this server serves no revision that opens with initialize over ${transport}`,
      ),
    };
  }
  if (typeof params['protocolVersion'] !== 'string') {
    return { ok: false, error: invalidParams(id, 'initialize needs params.protocolVersion as a string') };
  }
  const clientCapabilities = params['capabilities'];
  if (!isPlainObject(clientCapabilities)) {
    return { ok: false, error: invalidParams(id, 'initialize needs params.capabilities as an object') };
  }
  const clientInfo = params['clientInfo'];
  if (
    !isPlainObject(clientInfo) ||
    typeof clientInfo['name'] !== 'string' ||
    typeof clientInfo['version'] !== 'string'
  ) {
    return {
      ok: false,
      error: invalidParams(id, 'initialize needs params.clientInfo with string name and version'),
    };
  }
  const body: JsonObject = {
    protocolVersion: revision,
    capabilities: capabilities(server, revision, transport, session),
    serverInfo: shapeImplementation(profileOf(revision), server.info as unknown as JsonObject),
  };
  if (server.instructions !== undefined) body['instructions'] = server.instructions;
  return { ok: true, revision, result: body, clientCapabilities };
}

export function ping(): Outcome {
  return result({});
}
