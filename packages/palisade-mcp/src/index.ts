/** The public surface of `palisade-mcp`. Transports live behind their own subpaths (`palisade-mcp/stdio`). */

export { defineTool } from './catalog/define-tool.js';
export type {
  TaskChange,
  TaskRecord,
  TaskStatus,
  TaskStore,
  TaskSupport,
  TasksOptions,
} from './catalog/task-store.js';
export type {
  Annotations,
  AudioContent,
  BinaryData,
  CacheHint,
  Completer,
  ContentBlock,
  EmbeddedResourceContent,
  HandlerContext,
  Icon,
  ImageContent,
  InputRequest,
  InputRequestMethod,
  InputRequired,
  InputRequiredRequest,
  JsonObject,
  LogLevel,
  PromptArgumentDefinition,
  PromptDefinition,
  PromptMessage,
  PromptResult,
  ReadResourceReturn,
  RequestStateOptions,
  RequestStateSealer,
  ResourceContents,
  ResourceDefinition,
  ResourceLinkContent,
  ResourceTemplateDefinition,
  ServerDefinition,
  TextContent,
  ToolAnnotations,
  ToolDefinition,
  ToolResult,
} from './catalog/types.js';
export { PalisadeError, type PalisadeErrorCode } from './errors.js';
export {
  DEFAULT_PAGE_SIZE,
  DEFAULT_REQUEST_STATE_TTL_MS,
  MAX_INPUT_REQUEST_KEY_CHARS,
  MAX_INPUT_REQUESTS,
  MAX_INPUT_ROUNDS,
  MAX_JSON_DEPTH,
  MAX_MESSAGE_BYTES,
  MAX_PAGE_SIZE,
  MAX_REQUEST_STATE_BYTES,
  MAX_REQUEST_STATE_TTL_MS,
  MAX_RUNNING_TASKS,
  MAX_TASK_ID_CHARS,
} from './limits.js';
export { LEGACY_REVISION, MODERN_REVISION, type Revision } from './revisions.js';
export { createServer, type Server, type ServerInfo } from './server.js';
export {
  DISPATCH_CHANNEL_NAME,
  type DispatchEvent,
  type DispatchOutcome,
} from './telemetry/dispatch-channel.js';
