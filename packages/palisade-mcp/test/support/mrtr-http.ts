/**
 * The HTTP peer of the MRTR tests: user-peer.ts with no client capabilities unless a call names
 * them.
 */
import type { ServerDefinition } from '../../src/index.js';
import type { Json } from './http-peer.js';
import { mountUserPeer, type UserCallOptions, type UserPeer } from './user-peer.js';

export type MrtrPeer = UserPeer;
export type CallOptions = UserCallOptions;

export function mountMrtr(definition: ServerDefinition): Promise<MrtrPeer> {
  return mountUserPeer(definition, {});
}

/** Everything a client may ask for in one request. */
export const ALL_CAPABILITIES: Json = { elicitation: {}, sampling: {}, roots: {} };
