/**
 * Canonical bytes of a graph, schema 3, byte-identical to the original's format, and the digest
 * over exactly those bytes.
 *
 * The envelope is the one fixed, unsorted order: `schema_version`, `algorithm`, `nodes`,
 * `edges`. Nodes are sorted by id and edges by (from, to, kind, provenance), each by UTF-8
 * bytes after NFC; each node is written `id`, `kind`, `labels`, `level`, each edge `from`,
 * `kind`, `provenance`, `sign`, `to`. Weights never enter these bytes (see `sidecar.ts`).
 */
import { createHash } from 'node:crypto';
import { quote, writeValue } from './canonical-json.js';
import { ConnectomeError } from './errors.js';
import { admitGraph, type Graph } from './graph.js';
import { admitLabelValue } from './label-value.js';
import { isPlainObject, refuseUnknownKeys } from './options.js';
import { HASH_ALGORITHMS, type HashAlgorithm, isMember, SCHEMA_VERSION } from './vocabulary.js';

export interface CanonicalOptions {
  /** The digest named in the bytes and used for the hash; default `sha256`. */
  readonly algorithm?: HashAlgorithm;
}

export interface CanonicalGraph {
  readonly algorithm: HashAlgorithm;
  readonly bytes: Uint8Array;
  /** Lowercase hexadecimal digest of `bytes` under `algorithm`. */
  readonly hash: string;
}

export function readAlgorithm(options: CanonicalOptions | undefined): HashAlgorithm {
  if (options === undefined) return 'sha256';
  if (!isPlainObject(options))
    throw new ConnectomeError('PALISADE_ERR_INVALID_OPTION', 'options must be a plain object');
  refuseUnknownKeys(options, ['algorithm'], '');
  const algorithm = options['algorithm'] ?? 'sha256';
  if (!isMember(HASH_ALGORITHMS, algorithm)) {
    throw new ConnectomeError(
      'PALISADE_ERR_INVALID_OPTION',
      `option "algorithm" must be one of ${HASH_ALGORITHMS.join(', ')}`,
    );
  }
  return algorithm;
}

/** The graph's canonical bytes. Nodes and edges are already in canonical order in a built graph. */
export function encodeGraph(graph: Graph, options?: CanonicalOptions): Uint8Array {
  const algorithm = readAlgorithm(options);
  const admitted = admitGraph(graph);
  const nodes = admitted.nodes.map(
    (n) => `{"id":${quote(n.id)},"kind":"${n.kind}","labels":${writeValue(n.labels)},"level":"${n.level}"}`,
  );
  const edges = admitted.edges.map(
    (e) =>
      `{"from":${quote(e.from)},"kind":"${e.kind}","provenance":"${e.provenance}","sign":"${e.sign}","to":${quote(e.to)}}`,
  );
  const text = `{"schema_version":${SCHEMA_VERSION},"algorithm":"${algorithm}","nodes":[${nodes.join(',')}],"edges":[${edges.join(',')}]}`;
  return new Uint8Array(Buffer.from(text, 'utf8'));
}

/** Canonical bytes of any label-grammar value (keys sorted throughout), e.g. a diff record. */
export function encodeValue(value: unknown): Uint8Array {
  return new Uint8Array(Buffer.from(writeValue(admitLabelValue(value, 'value')), 'utf8'));
}

/** Lowercase hexadecimal digest of `bytes`. */
export function digestHex(bytes: Uint8Array, algorithm: HashAlgorithm = 'sha256'): string {
  if (!isMember(HASH_ALGORITHMS, algorithm)) {
    throw new ConnectomeError(
      'PALISADE_ERR_INVALID_OPTION',
      `option "algorithm" must be one of ${HASH_ALGORITHMS.join(', ')}`,
    );
  }
  return createHash(algorithm).update(bytes).digest('hex');
}

/** The bytes, the algorithm they name, and the digest over them. */
export function canonicalGraph(graph: Graph, options?: CanonicalOptions): CanonicalGraph {
  const algorithm = readAlgorithm(options);
  const bytes = encodeGraph(graph, { algorithm });
  return Object.freeze({ algorithm, bytes, hash: digestHex(bytes, algorithm) });
}
