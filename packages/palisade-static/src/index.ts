export { analyzeScope } from './analyze-scope.js';
export { StaticAnalysisError, type StaticErrorCode } from './errors.js';
export { MAX_DETAIL_CHARS, MAX_FILE_BYTES, MAX_FILES } from './limits.js';
export type { AnalyzeScopeOptions, BoundaryDeclaration } from './options.js';
export {
  type Incomplete,
  type IncompleteReason,
  STATIC_LEVELS,
  type StaticEdge,
  type StaticEdgeKind,
  type StaticGraph,
  type StaticLevel,
  type StaticNode,
  type StaticNodeKind,
} from './shape.js';
