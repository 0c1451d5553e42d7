/**
 * The federation seam: graphs from several processes merged into one, with attribution.
 *
 * Scoping. Every node id of a member is prefixed by the member's process name, escaped by the
 * one id function (`nodeId`: `%` to `%25`, then `/` to `%2F`), then `/`: `procA/demo/tool/echo`.
 * The escaped name holds no `/`, so the first `/` splits a scoped id back into (process, id) and
 * two processes naming the same server can never give one id. Process names are the caller's
 * (Node has no registry of them); two members with one name, or names equal after NFC, are
 * refused.
 *
 * Attribution. Schema 3 fixes an edge's fields (from, kind, provenance, sign, to), so no
 * `asserted_by` field can enter an edge without breaking the golden bytes. Attribution goes in
 * node labels instead: every merged node carries `asserted_by: <process>`, which is hashed, and
 * since every edge joins two nodes of one member, an edge's asserter is its endpoints' asserter.
 * `attribution` spells it out per edge. A member whose node already has an `asserted_by` label
 * is refused by name rather than overwritten (so a merged graph is not re-federated here).
 *
 * Signs. The package writes no sign but `unset`; a member's sign is kept as the member wrote it,
 * and `attribution[i].sign_by` names that member as the authority behind it (`null` for
 * `unset`). Whether a peer's bytes are what the peer signed is the host's question: an optional
 * `verify` callback receives exactly the peer's bytes and its signature; the package verifies
 * nothing, and a peer the callback does not answer `true` for is refused by name.
 *
 * A peer's graph is wire input: its bytes are read under `MAX_PEER_GRAPH_BYTES` with the wire's
 * rules (`peer-json.ts`), the envelope is checked, the graph is built by `createGraph`, and the
 * bytes must be exactly the canonical bytes of that graph, so what a signature covers is what
 * gets merged. The host's own graph is a `graph` member and is trusted as built.
 *
 * Weights. A peer's canonical bytes carry none; its weights (counts, latency summaries) come in
 * an optional `sidecar`, read under the same bound and rules and refused by name when malformed
 * (`peer-sidecar.ts`). They land on that peer's scoped edges, and `attribution[i].weight_by` names
 * the member whose sidecar (or, for a local member, whose graph) gave the weight.
 */

import { digestHex, encodeGraph } from './canonical.js';
import { ConnectomeError } from './errors.js';
import { admitGraph, createGraph, type EdgeInput, type Graph, type NodeInput } from './graph.js';
import { nodeId } from './node-id.js';
import { isPlainObject, refuseUnknownKeys } from './options.js';
import { readPeerJson } from './peer-json.js';
import { readPeerSidecar } from './peer-sidecar.js';
import { isCurrentSchema } from './schema-version.js';
import { compareCodePoints, nfc } from './text-order.js';
import {
  type EdgeKind,
  HASH_ALGORITHMS,
  type HashAlgorithm,
  isMember,
  type Provenance,
  SCHEMA_VERSION,
  type Sign,
} from './vocabulary.js';

export { MAX_PEER_GRAPH_BYTES } from './peer-json.js';

/** The node label that names the process a merged node (and so its edges) came from. */
export const ASSERTED_BY_LABEL = 'asserted_by';

/** The host's own graph, built in this process: trusted as built. */
export interface LocalMember {
  readonly process: string;
  readonly graph: Graph;
}

/** A peer's graph as it arrived: its canonical bytes and, optionally, the peer's signature. */
export interface PeerMember {
  readonly process: string;
  readonly bytes: Uint8Array;
  readonly signature?: Uint8Array;
  /** The peer's sidecar bytes (`encodeSidecar` of its graph): weights for its edges, unsigned. */
  readonly sidecar?: Uint8Array;
  /** The peer's assertions about its signature, passed to `verify` verbatim. */
  readonly scheme?: string;
  readonly keyId?: string;
}

export type FederationMember = LocalMember | PeerMember;

export interface PeerVerifyContext {
  readonly process: string;
  readonly algorithm: HashAlgorithm;
  readonly hash: string;
  readonly signature: Uint8Array | null;
  readonly scheme: string | null;
  readonly keyId: string | null;
}

/** The host's check of a peer; only `true` admits the peer. Its own error propagates unchanged. */
export type PeerVerifier = (bytes: Uint8Array, context: PeerVerifyContext) => boolean | Promise<boolean>;

export interface FederateOptions {
  readonly verify?: PeerVerifier;
}

export interface MemberRecord {
  readonly process: string;
  readonly source: 'local' | 'peer';
  /** For a peer, the algorithm its envelope names; for the local graph, `sha256`. */
  readonly algorithm: HashAlgorithm;
  /** Digest of the member's canonical bytes under `algorithm`. */
  readonly hash: string;
  readonly signature: Uint8Array | null;
  readonly scheme: string | null;
  readonly keyId: string | null;
  /** The host's `verify` answered `true`; `null` when it was not asked (no callback, or a local member). */
  readonly verified: true | null;
}

export interface EdgeAttribution {
  readonly from: string;
  readonly to: string;
  readonly kind: EdgeKind;
  readonly provenance: Provenance;
  readonly asserted_by: string;
  readonly sign: Sign;
  /** The member whose bytes carry the sign; `null` when the sign is `unset`. */
  readonly sign_by: string | null;
  /** The member whose sidecar (or local graph) gave the edge's weight; `null` when it has none. */
  readonly weight_by: string | null;
}

export interface FederatedGraph {
  readonly graph: Graph;
  /** One record per member, sorted by process name (code points). */
  readonly members: readonly MemberRecord[];
  /** One entry per edge of `graph`, in its canonical edge order. */
  readonly attribution: readonly EdgeAttribution[];
}

/** `id` scoped under `process`: the process name escaped by `nodeId`, then `/`, then `id`. */
export function scopedId(process: string, id: string): string {
  return `${scopePrefix(process)}/${id}`;
}

/**
 * Reads a peer's canonical bytes into a graph: the wire's rules under `MAX_PEER_GRAPH_BYTES`,
 * then the envelope, then `createGraph`, then the bytes must be that graph's canonical bytes.
 * Every refusal names the peer.
 */
export function readPeerGraph(
  process: string,
  bytes: Uint8Array,
): { readonly graph: Graph; readonly algorithm: HashAlgorithm; readonly hash: string } {
  const who = JSON.stringify(process);
  const value = readPeerJson(bytes, who);
  if (!isPlainObject(value)) throw envelope(who, 'is not a JSON object');
  for (const key of Object.keys(value)) {
    if (!['schema_version', 'algorithm', 'nodes', 'edges'].includes(key)) {
      throw envelope(who, `has the unknown envelope key ${JSON.stringify(key)}`);
    }
  }
  if (!isCurrentSchema(value['schema_version'], `peer ${who}`)) {
    throw envelope(
      who,
      `has schema_version ${JSON.stringify(value['schema_version'])}; this reads ${SCHEMA_VERSION}`,
    );
  }
  const algorithm = value['algorithm'];
  if (!isMember(HASH_ALGORITHMS, algorithm)) {
    throw envelope(who, `names no known algorithm (one of ${HASH_ALGORITHMS.join(', ')})`);
  }
  let graph: Graph;
  try {
    graph = createGraph({ nodes: value['nodes'], edges: value['edges'] } as never);
  } catch (error) {
    if (error instanceof ConnectomeError)
      throw new ConnectomeError(error.code, `peer ${who}: ${error.message}`);
    throw error;
  }
  const canonical = encodeGraph(graph, { algorithm });
  if (!Buffer.from(canonical).equals(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))) {
    throw new ConnectomeError(
      'PALISADE_ERR_CONNECTOME_PEER_NOT_CANONICAL',
      `peer ${who}: the bytes are a valid graph but not its canonical bytes, so a signature over them would not cover the graph merged`,
    );
  }
  return Object.freeze({ graph, algorithm, hash: digestHex(canonical, algorithm) });
}

/**
 * Merges the members' graphs, scoped and attributed. Refusals, first one wins: options; the
 * member list and each member's shape; two members with one process name (after NFC); then,
 * member by member in process-name order, a peer's bytes (`readPeerGraph`), the host's verdict
 * on it (`verify`), its sidecar (`readPeerSidecar`), and a node already labelled `asserted_by`.
 */
export async function federateGraphs(
  members: readonly FederationMember[],
  options?: FederateOptions,
): Promise<FederatedGraph> {
  const verify = readVerify(options);
  const sorted = readMembers(members);

  const records: MemberRecord[] = [];
  const nodes: NodeInput[] = [];
  const edges: EdgeInput[] = [];
  const owner = new Map<string, string>();
  for (const member of sorted) {
    let graph: Graph;
    let record: MemberRecord;
    if ('graph' in member) {
      graph = admitGraph(member.graph);
      const bytes = encodeGraph(graph);
      record = memberRecord(member.process, 'local', 'sha256', digestHex(bytes), null, null, null, null);
    } else {
      const read = readPeerGraph(member.process, member.bytes);
      graph = read.graph;
      const signature = member.signature ?? null;
      const scheme = member.scheme ?? null;
      const keyId = member.keyId ?? null;
      let verified: true | null = null;
      if (verify !== undefined) {
        const context = Object.freeze({
          process: member.process,
          algorithm: read.algorithm,
          hash: read.hash,
          signature: signature === null ? null : signature.slice(),
          scheme,
          keyId,
        });
        if ((await verify(member.bytes.slice(), context)) !== true) {
          throw new ConnectomeError(
            'PALISADE_ERR_CONNECTOME_PEER_UNVERIFIED',
            `peer ${JSON.stringify(member.process)}: the host's verify did not answer true`,
          );
        }
        verified = true;
      }
      if (member.sidecar !== undefined) graph = readPeerSidecar(member.process, member.sidecar, graph);
      record = memberRecord(
        member.process,
        'peer',
        read.algorithm,
        read.hash,
        signature,
        scheme,
        keyId,
        verified,
      );
    }
    records.push(record);
    for (const node of graph.nodes) {
      if (Object.keys(node.labels).some((key) => nfc(key) === ASSERTED_BY_LABEL)) {
        throw new ConnectomeError(
          'PALISADE_ERR_CONNECTOME_RESERVED_LABEL',
          `member ${JSON.stringify(member.process)}: node ${JSON.stringify(node.id)} already has the label "${ASSERTED_BY_LABEL}", which federation writes`,
        );
      }
      const id = scopedId(member.process, node.id);
      owner.set(id, member.process);
      nodes.push({
        id,
        kind: node.kind,
        level: node.level,
        labels: { ...node.labels, [ASSERTED_BY_LABEL]: member.process },
      });
    }
    for (const edge of graph.edges) {
      const scoped: EdgeInput = {
        from: scopedId(member.process, edge.from),
        to: scopedId(member.process, edge.to),
        kind: edge.kind,
        provenance: edge.provenance,
        sign: edge.sign,
      };
      edges.push(edge.weight === undefined ? scoped : { ...scoped, weight: edge.weight });
    }
  }

  const graph = createGraph({ nodes, edges });
  const attribution = graph.edges.map((edge) => {
    const process = owner.get(edge.from)!;
    return Object.freeze({
      from: edge.from,
      to: edge.to,
      kind: edge.kind,
      provenance: edge.provenance,
      asserted_by: process,
      sign: edge.sign,
      sign_by: edge.sign === 'unset' ? null : process,
      weight_by: edge.weight === undefined ? null : process,
    });
  });
  return Object.freeze({ graph, members: Object.freeze(records), attribution: Object.freeze(attribution) });
}

function memberRecord(
  process: string,
  source: 'local' | 'peer',
  algorithm: HashAlgorithm,
  hash: string,
  signature: Uint8Array | null,
  scheme: string | null,
  keyId: string | null,
  verified: true | null,
): MemberRecord {
  return Object.freeze({ process, source, algorithm, hash, signature, scheme, keyId, verified });
}

// `nodeId(process, server)` is `<escaped process>/server`: the one id function escapes the
// name (and refuses an empty one or a lone surrogate), and the fixed tag is cut off again.
function scopePrefix(process: string): string {
  return nodeId(process, { kind: 'server' }).slice(0, -'/server'.length);
}

function readVerify(options: FederateOptions | undefined): PeerVerifier | undefined {
  if (options === undefined) return undefined;
  if (!isPlainObject(options))
    throw new ConnectomeError('PALISADE_ERR_INVALID_OPTION', 'options must be a plain object');
  refuseUnknownKeys(options, ['verify'], '');
  const verify = options['verify'];
  if (verify !== undefined && typeof verify !== 'function') {
    throw new ConnectomeError('PALISADE_ERR_INVALID_OPTION', 'option "verify" must be a function');
  }
  return verify as PeerVerifier | undefined;
}

function readMembers(members: readonly FederationMember[]): FederationMember[] {
  if (!Array.isArray(members)) {
    throw new ConnectomeError('PALISADE_ERR_INVALID_OPTION', 'members must be an array');
  }
  const checked = (members as readonly unknown[]).map((member, i) => readMember(member, `members[${i}]`));
  const seen = new Map<string, string>();
  for (const member of checked) {
    const normal = nfc(member.process);
    const earlier = seen.get(normal);
    if (earlier !== undefined) {
      throw new ConnectomeError(
        'PALISADE_ERR_CONNECTOME_DUPLICATE_PROCESS',
        `process names ${JSON.stringify(earlier)} and ${JSON.stringify(member.process)} are one name (after NFC); each member needs its own`,
      );
    }
    seen.set(normal, member.process);
  }
  return checked.sort((a, b) => compareCodePoints(nfc(a.process), nfc(b.process)));
}

function readMember(value: unknown, where: string): FederationMember {
  if (!isPlainObject(value))
    throw new ConnectomeError('PALISADE_ERR_INVALID_OPTION', `${where} must be a plain object`);
  const isLocal = 'graph' in value;
  refuseUnknownKeys(
    value,
    isLocal ? ['process', 'graph'] : ['process', 'bytes', 'signature', 'sidecar', 'scheme', 'keyId'],
    where,
  );
  // Checks the name as an id component: non-empty, no lone surrogate.
  scopePrefix(value['process'] as string);
  if (isLocal) return value as unknown as LocalMember;
  if (!(value['bytes'] instanceof Uint8Array)) {
    throw new ConnectomeError(
      'PALISADE_ERR_INVALID_OPTION',
      `${where} needs "graph" (a Graph) or "bytes" (a Uint8Array)`,
    );
  }
  for (const key of ['signature', 'sidecar']) {
    if (value[key] !== undefined && !(value[key] instanceof Uint8Array)) {
      throw new ConnectomeError('PALISADE_ERR_INVALID_OPTION', `${where}.${key} must be a Uint8Array`);
    }
  }
  for (const key of ['scheme', 'keyId']) {
    if (value[key] !== undefined && typeof value[key] !== 'string') {
      throw new ConnectomeError('PALISADE_ERR_INVALID_OPTION', `${where}.${key} must be a string`);
    }
  }
  return value as unknown as PeerMember;
}

function envelope(who: string, what: string): ConnectomeError {
  return new ConnectomeError(
    'PALISADE_ERR_CONNECTOME_PEER_MALFORMED',
    `peer ${who}: ${what} (rule envelope)`,
  );
}
