/** The public surface of `palisade-mcp`. Transports live behind their own subpaths (`palisade-mcp/stdio`). */

export type { BusEvent, BusListener, Change, ChangeBus, ChangeKind } from './catalog/changes.js';
export { definePrompt, type PromptArgs, type TypedPromptDefinition } from './catalog/define-prompt.js';
export {
  defineResourceTemplate,
  type TypedResourceTemplateDefinition,
  type UriTemplateVariables,
} from './catalog/define-resource-template.js';
export {
  defineTool,
  type InferSchemaInput,
  type ToolArgs,
  type TypedToolDefinition,
} from './catalog/define-tool.js';
export {
  isTerminalStatus,
  MemoryTaskStore,
  type MemoryTaskStoreOptions,
} from './catalog/memory-task-store.js';
export type { StandardJSONSchemaV1 } from './catalog/standard-schema.js';
export type {
  TaskChange,
  TaskPage,
  TaskRecord,
  TaskStatus,
  TaskStore,
  TaskSupport,
  TasksOptions,
} from './catalog/task-store.js';
export { ToolError } from './catalog/tool-error.js';
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
  ToolSchema,
} from './catalog/types.js';
export { PalisadeError, type PalisadeErrorCode } from './errors.js';
export {
  DEFAULT_PAGE_SIZE,
  DEFAULT_REQUEST_STATE_TTL_MS,
  MAX_BAGGAGE_BYTES,
  MAX_BAGGAGE_MEMBERS,
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
  MAX_TASK_TTL_MS,
  MAX_TOOL_ERROR_CHARS,
  MAX_TRACESTATE_BYTES,
  MAX_TRACESTATE_MEMBERS,
} from './limits.js';
export { MemoryChangeBus } from './protocol/change-bus.js';
export type { CacheKey } from './protocol/server-shape.js';
export { LEGACY_REVISION, MODERN_REVISION, type Revision } from './revisions.js';
export { type CatalogNames, catalogNames, createServer, type Server, type ServerInfo } from './server.js';
export type {
  Awaitable,
  ClientReply,
  Delivery,
  EventStore,
  OpenRefusal,
  PendingReply,
  Replay,
  ReplayRefusal,
  SessionChange,
  SessionRecord,
  SessionRelay,
  SessionStore,
  StoredEvent,
  StreamLimits,
  WaitEnd,
} from './sessions/contracts.js';
export { MemoryEventStore } from './sessions/memory-event-store.js';
export { MemoryRelay } from './sessions/memory-relay.js';
export { MemorySessionStore } from './sessions/memory-session-store.js';
export {
  DISPATCH_CHANNEL_NAME,
  HTTP_REFUSAL_CHANNEL,
  type HttpRefusalEvent,
  STDIO_REFUSAL_CHANNEL,
  type StdioRefusalEvent,
} from './telemetry/channel-names.js';
export type {
  DispatchEvent,
  DispatchEventBase,
  DispatchOutcome,
  TraceContext,
} from './telemetry/dispatch-channel.js';
export type { FaultRecord, PalisadeLogger, RefusalRecord, TransportName } from './telemetry/logger.js';
export type {
  HostRuleName,
  HttpRefusalRule,
  HttpTransportRule,
  StdioRefusalRule,
} from './telemetry/refusal-rules.js';
export { MAX_RETRY_AFTER_S, UnavailableError, type UnavailableInit } from './unavailable.js';
export {
  HEADER_MISMATCH,
  INTERNAL_ERROR,
  INVALID_PARAMS,
  INVALID_REQUEST,
  type JsonRpcErrorCode,
  METHOD_NOT_FOUND,
  MISSING_CLIENT_CAPABILITY,
  PARSE_ERROR,
  RESOURCE_NOT_FOUND,
  SERVER_BUSY,
  UNSUPPORTED_PROTOCOL_VERSION,
} from './wire/codes.js';
export type { FramingRule, JsonRule } from './wire/refusal.js';
