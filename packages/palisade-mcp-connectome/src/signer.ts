/**
 * The signer seam. The package holds no key and signs nothing: the host's signer receives
 * exactly the canonical bytes (a copy, so it cannot alter what is returned beside its answer)
 * and its signature is returned next to those bytes. The envelope never changes for a
 * signature. `scheme` and `keyId` are the host's assertions, copied verbatim and verified by
 * nothing here; verifying is the host's job, over bytes re-derived from the graph.
 */

import { type CanonicalGraph, canonicalGraph } from './canonical.js';
import { ConnectomeError } from './errors.js';
import type { Graph } from './graph.js';
import { isPlainObject, refuseUnknownKeys } from './options.js';
import type { HashAlgorithm } from './vocabulary.js';

export interface SignContext {
  readonly algorithm: HashAlgorithm;
  readonly scheme: string | null;
  readonly keyId: string | null;
}

export interface GraphSigner {
  sign(bytes: Uint8Array, context: SignContext): Uint8Array | Promise<Uint8Array>;
}

export interface SignOptions {
  readonly algorithm?: HashAlgorithm;
  /** e.g. `ed25519`; not enforced. */
  readonly scheme?: string;
  readonly keyId?: string;
}

export interface SignedGraph extends CanonicalGraph {
  readonly signature: Uint8Array;
  readonly scheme: string | null;
  readonly keyId: string | null;
}

/** Encodes the graph, hands the bytes to `signer`, returns bytes, hash and signature together. A signer's own error propagates unchanged. */
export async function signGraph(
  graph: Graph,
  signer: GraphSigner,
  options: SignOptions = {},
): Promise<SignedGraph> {
  if (!isPlainObject(options))
    throw new ConnectomeError('PALISADE_ERR_INVALID_OPTION', 'sign options must be a plain object');
  refuseUnknownKeys(options, ['algorithm', 'scheme', 'keyId'], '');
  const scheme = optionalText(options['scheme'], 'scheme');
  const keyId = optionalText(options['keyId'], 'keyId');
  if (typeof signer !== 'object' || signer === null || typeof signer.sign !== 'function') {
    throw new ConnectomeError(
      'PALISADE_ERR_INVALID_OPTION',
      'option "signer" must be an object with a sign(bytes, context) method',
    );
  }
  const canonical = canonicalGraph(graph, {
    algorithm: (options['algorithm'] as HashAlgorithm | undefined) ?? 'sha256',
  });
  const signature = await signer.sign(
    canonical.bytes.slice(),
    Object.freeze({ algorithm: canonical.algorithm, scheme, keyId }),
  );
  if (!(signature instanceof Uint8Array)) {
    throw new ConnectomeError(
      'PALISADE_ERR_CONNECTOME_SIGNER',
      'the signer answered something other than a Uint8Array',
    );
  }
  return Object.freeze({ ...canonical, signature, scheme, keyId });
}

function optionalText(value: unknown, name: string): string | null {
  if (value === undefined) return null;
  if (typeof value !== 'string')
    throw new ConnectomeError('PALISADE_ERR_INVALID_OPTION', `option "${name}" must be a string`);
  return value;
}
