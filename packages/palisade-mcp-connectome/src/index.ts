/**
 * `palisade-mcp-connectome`: what a Palisade server can reach (declared) and did reach (observed).
 * A package of its own, so a server that never builds a graph installs none of it. Curated to what
 * a host needs to build, read, hash, sign, diff and query graphs and to serve them as resources;
 * the helpers behind them (label admission, text orders, the collector's internals) stay private.
 */

export type { CanonicalGraph, CanonicalOptions } from './canonical.js';
export { canonicalGraph, encodeGraph } from './canonical.js';
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
export type {
  EdgeHeat,
  EffectiveConnectivity,
  EffectiveOptions,
  EffectiveSummary,
  HeatClass,
  HeatUnit,
  PathHeat,
} from './effective.js';
export { DEFAULT_HOT_PERCENTILE, effectiveConnectivity, pathHeat } from './effective.js';
export { ConnectomeError, type ConnectomeErrorCode } from './errors.js';
export type {
  EdgeAttribution,
  FederatedGraph,
  FederateOptions,
  FederationMember,
  LocalMember,
  MemberRecord,
  PeerMember,
  PeerVerifier,
  PeerVerifyContext,
} from './federation.js';
export {
  ASSERTED_BY_LABEL,
  federateGraphs,
  MAX_PEER_GRAPH_BYTES,
  readPeerGraph,
  scopedId,
} from './federation.js';
export type { EdgeInput, Graph, GraphEdge, GraphInput, GraphNode, NodeInput } from './graph.js';
export { createGraph } from './graph.js';
export type { LabelObject, LabelValue } from './label-value.js';
export type { NodeIdentity } from './node-id.js';
export { identifiedNode, nodeId } from './node-id.js';
export type { Collector, CollectorOptions, CollectorStats, ObservedGraphOptions } from './observed.js';
export {
  DEFAULT_MAX_OBSERVED_EDGES,
  MAX_OBSERVED_EDGES,
  observedGraph,
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
  connectomeResources,
} from './resources.js';
export { encodeSidecar } from './sidecar.js';
export type { GraphSigner, SignContext, SignedGraph, SignOptions } from './signer.js';
export { signGraph } from './signer.js';
export type {
  StaticEdgeShape,
  StaticNodeShape,
  StaticReadShape,
  StaticToDeclaredOptions,
} from './static-adapter.js';
export { staticToDeclared } from './static-adapter.js';
export type { Tracer, TracerOptions, TracerReport, TracerStopReason } from './tracer.js';
export {
  DEFAULT_TRACER_MAX_DURATION_MS,
  DEFAULT_TRACER_MAX_SAMPLES,
  MAX_TRACER_DURATION_MS,
  MAX_TRACER_SAMPLES,
  startTracer,
} from './tracer.js';
export type { EdgeKind, HashAlgorithm, Level, NodeKind, Provenance, Sign } from './vocabulary.js';
export { SCHEMA_VERSION } from './vocabulary.js';
