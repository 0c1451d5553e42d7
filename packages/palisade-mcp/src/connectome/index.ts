/** The connectome's public API: the graph model, canonical bytes, diff and reach. */

export type { CanonicalGraph, CanonicalOptions } from './canonical.js';
export { canonicalGraph, digestHex, encodeGraph, encodeValue } from './canonical.js';
export type { ChangedSign, DiffClasses, DiffCoverage, DiffOptions, EdgeLabel, GraphDiff } from './diff.js';
export { canonicalDiff, diffGraphs, encodeDiff } from './diff.js';
export type { EdgeInput, Graph, GraphEdge, GraphInput, GraphNode, NodeInput } from './graph.js';
export { admitGraph, createGraph, isGraph } from './graph.js';
export type { LabelObject, LabelValue } from './label-value.js';
export { MAX_LABEL_DEPTH } from './label-value.js';
export type { NodeIdentity } from './node-id.js';
export { identifiedNode, nodeId } from './node-id.js';
export type { EntryOptions, PathOptions, Witness } from './reach.js';
export {
  allPaths,
  DEFAULT_MAX_REACH_EDGES,
  dominates,
  dominators,
  reachable,
  reachableWithout,
} from './reach.js';
export { encodeSidecar } from './sidecar.js';
export type { GraphSigner, SignContext, SignedGraph, SignOptions } from './signer.js';
export { signGraph } from './signer.js';
export { compareCodePoints, compareCodeUnits } from './text-order.js';
export type { EdgeKind, HashAlgorithm, Level, NodeKind, Provenance, Sign } from './vocabulary.js';
export {
  EDGE_KINDS,
  HASH_ALGORITHMS,
  LEVELS,
  NODE_KINDS,
  PROVENANCES,
  SCHEMA_VERSION,
  SIGNS,
} from './vocabulary.js';
