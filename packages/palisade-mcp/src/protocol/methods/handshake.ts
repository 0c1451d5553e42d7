/**
 * The two ways a client learns what this server is: `server/discover` (2026-07-28, stateless,
 * answered like any request once its `_meta` passed) and `initialize` (2025-11-25, which
 * fixes a stdio process to that revision). `initialize` never fails over the version a client
 * asks for: it counters with the one legacy revision served, as 2025-11-25 requires.
 */
import type { JsonObject } from '../../catalog/types.js';
import { isPlainObject } from '../../options.js';
import { LEGACY_REVISION, MODERN_REVISION } from '../../revisions.js';
import { errorResponse, type JsonRpcError, type RequestId } from '../../wire/jsonrpc.js';
import { invalidParams, MAX_ECHOED_VERSION_CHARS, UNSUPPORTED_PROTOCOL_VERSION } from '../errors.js';
import type { Server } from '../server-shape.js';
import { type Call, type Outcome, result } from './call.js';
import { capabilities } from './capabilities.js';

export function discover(call: Call): Outcome {
  const { server } = call;
  const body: JsonObject = {
    supportedVersions: [...server.supportedVersions],
    capabilities: capabilities(server, MODERN_REVISION, 'http'),
  };
  if (server.instructions !== undefined) body['instructions'] = server.instructions;
  return result(body, server.cache.discover);
}

export function unsupportedVersion(
  server: Server,
  id: RequestId | undefined,
  requested: unknown,
  message: string,
): JsonRpcError {
  const echoed = typeof requested === 'string' ? requested.slice(0, MAX_ECHOED_VERSION_CHARS) : undefined;
  const data: JsonObject = { supported: [...server.supportedVersions] };
  if (echoed !== undefined) data['requested'] = echoed;
  return errorResponse(id, UNSUPPORTED_PROTOCOL_VERSION, `Unsupported protocol version: ${message}`, data);
}

export type InitializeOutcome =
  | { readonly ok: true; readonly result: JsonObject; readonly clientCapabilities: JsonObject }
  | { readonly ok: false; readonly error: JsonRpcError };

export function initialize(
  server: Server,
  id: RequestId,
  params: Readonly<JsonObject>,
  transport: 'stdio' | 'http',
): InitializeOutcome {
  if (!server.supportedVersions.includes(LEGACY_REVISION)) {
    return {
      ok: false,
      error: unsupportedVersion(
        server,
        id,
        params['protocolVersion'],
        `this server serves ${MODERN_REVISION} only, without initialize`,
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
    protocolVersion: LEGACY_REVISION,
    capabilities: capabilities(server, LEGACY_REVISION, transport),
    serverInfo: { ...server.info },
  };
  if (server.instructions !== undefined) body['instructions'] = server.instructions;
  return { ok: true, result: body, clientCapabilities };
}

export function ping(): Outcome {
  return result({});
}
