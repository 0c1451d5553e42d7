/** The connectome's public API: the graph model, declared and observed graphs, canonical bytes, diff, reach, resources. */

export type { CanonicalGraph, CanonicalOptions } from './canonical.js';
export { canonicalGraph, digestHex, encodeGraph, encodeValue } from './canonical.js';
export type {
  BoundEntry,
  CompletenessBound,
  DeclaredConnectome,
  DeclaredOptions,
  StaticCodeGraph,
} from './declared.js';
export { declaredFromCatalog, mergeStaticGraph } from './declared.js';
export type { ChangedSign, DiffClasses, DiffCoverage, DiffOptions, EdgeLabel, GraphDiff } from './diff.js';
export { canonicalDiff, diffGraphs, encodeDiff } from './diff.js';
export type { EdgeInput, Graph, GraphEdge, GraphInput, GraphNode, NodeInput } from './graph.js';
export { admitGraph, createGraph, isGraph } from './graph.js';
export type { LabelObject, LabelValue } from './label-value.js';
export { MAX_LABEL_DEPTH } from './label-value.js';
export type { NodeIdentity } from './node-id.js';
export { identifiedNode, nodeId } from './node-id.js';
export type { Collector, CollectorOptions, CollectorStats, ObservedGraphOptions } from './observed.js';
export {
  currentCollector,
  DEFAULT_MAX_OBSERVED_EDGES,
  LATENCY_BUCKETS_US,
  MAX_OBSERVED_EDGES,
  observedGraph,
  requireCollector,
  startCollector,
} from './observed.js';
export type { EntryOptions, PathOptions, Witness } from './reach.js';
export {
  allPaths,
  DEFAULT_MAX_REACH_EDGES,
  dominates,
  dominators,
  reachable,
  reachableWithout,
} from './reach.js';
export type { ConnectomeResourceOptions } from './resources.js';
export {
  CONNECTOME_DECLARED_URI,
  CONNECTOME_DIFF_URI,
  CONNECTOME_OBSERVED_URI,
  collectorWindow,
  connectomeResources,
} from './resources.js';
export { encodeSidecar } from './sidecar.js';
export type { GraphSigner, SignContext, SignedGraph, SignOptions } from './signer.js';
export { signGraph } from './signer.js';
export { compareCodePoints, compareCodeUnits } from './text-order.js';
export type { Tracer, TracerOptions, TracerReport, TracerStopReason } from './tracer.js';
export {
  DEFAULT_TRACER_MAX_DURATION_MS,
  DEFAULT_TRACER_MAX_SAMPLES,
  MAX_TRACER_DURATION_MS,
  MAX_TRACER_SAMPLES,
  startTracer,
} from './tracer.js';
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
