/** The public surface of `palisade-mcp`. Transports live behind their own subpaths (`palisade-mcp/stdio`). */

export { defineTool } from './catalog/define-tool.js';
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
  JsonObject,
  LogLevel,
  PromptArgumentDefinition,
  PromptDefinition,
  PromptMessage,
  PromptResult,
  ReadResourceReturn,
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
  MAX_JSON_DEPTH,
  MAX_MESSAGE_BYTES,
  MAX_PAGE_SIZE,
} from './limits.js';
export { LEGACY_REVISION, MODERN_REVISION, type Revision } from './revisions.js';
export { createServer, type Server, type ServerInfo } from './server.js';
export {
  DISPATCH_CHANNEL_NAME,
  type DispatchEvent,
  type DispatchOutcome,
} from './telemetry/dispatch-channel.js';
