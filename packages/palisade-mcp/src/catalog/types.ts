/**
 * What a host declares: the catalog (tools, resources, templates, prompts) and the handlers
 * behind it. Palisade holds no tool of its own; everything here comes from the host and is
 * checked once, when the server is constructed.
 */
import type { Revision } from '../revisions.js';

export type JsonObject = { [key: string]: unknown };

export type LogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/** What a handler may use, and nothing more. */
export interface HandlerContext {
  /** Fires when the client cancels (stdio `notifications/cancelled`, a closed HTTP stream on 2026-07-28) or the transport closes. */
  readonly signal: AbortSignal;
  /** The revision this request is served under. */
  readonly revision: Revision;
  /** The request's `params._meta` exactly as the client sent it: the client's word, never evidence for authorization. */
  readonly meta: Readonly<JsonObject>;
  /** Capabilities the client declared (2026-07-28: on this request; 2025-11-25: at `initialize`). The client's word. */
  readonly clientCapabilities: Readonly<JsonObject>;
  /** What the transport's `authorize` hook returned; `undefined` on stdio. */
  readonly auth: unknown;
  /** Reports progress when the client asked for it (a `progressToken`); values must strictly increase, others are dropped. */
  progress(progress: number, total?: number, message?: string): void;
  /** Sends a log message on this request's stream, only when the client asked for that level. */
  log(level: LogLevel, data: unknown, logger?: string): void;
}

export interface Annotations {
  readonly audience?: readonly ('user' | 'assistant')[];
  readonly priority?: number;
  readonly lastModified?: string;
}

export interface Icon {
  readonly src: string;
  readonly mimeType?: string;
  readonly sizes?: readonly string[];
  readonly theme?: 'light' | 'dark';
}

/** Binary data may be given as bytes (Palisade base64-encodes them) or as a base64 string sent as it is. */
export type BinaryData = Uint8Array | string;

export type TextContent = {
  readonly type: 'text';
  readonly text: string;
  readonly annotations?: Annotations;
  readonly _meta?: JsonObject;
};
export type ImageContent = {
  readonly type: 'image';
  readonly data: BinaryData;
  readonly mimeType: string;
  readonly annotations?: Annotations;
  readonly _meta?: JsonObject;
};
export type AudioContent = {
  readonly type: 'audio';
  readonly data: BinaryData;
  readonly mimeType: string;
  readonly annotations?: Annotations;
  readonly _meta?: JsonObject;
};
export type ResourceLinkContent = {
  readonly type: 'resource_link';
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly size?: number;
  readonly icons?: readonly Icon[];
  readonly annotations?: Annotations;
  readonly _meta?: JsonObject;
};
export type ResourceContents =
  | { readonly uri: string; readonly mimeType?: string; readonly text: string; readonly _meta?: JsonObject }
  | {
      readonly uri: string;
      readonly mimeType?: string;
      readonly blob: BinaryData;
      readonly _meta?: JsonObject;
    };
export type EmbeddedResourceContent = {
  readonly type: 'resource';
  readonly resource: ResourceContents;
  readonly annotations?: Annotations;
  readonly _meta?: JsonObject;
};

export type ContentBlock =
  | TextContent
  | ImageContent
  | AudioContent
  | ResourceLinkContent
  | EmbeddedResourceContent;

export interface ToolResult {
  readonly content?: readonly ContentBlock[];
  readonly structuredContent?: unknown;
  readonly isError?: boolean;
  readonly _meta?: JsonObject;
}

export interface ToolAnnotations {
  readonly title?: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

export interface ToolDefinition<Args extends JsonObject = JsonObject> {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  /** JSON Schema 2020-12 with `type: "object"` at the root: advertised in `tools/list` and enforced in `tools/call`. */
  readonly inputSchema: JsonObject;
  readonly outputSchema?: JsonObject;
  readonly annotations?: ToolAnnotations;
  readonly icons?: readonly Icon[];
  readonly _meta?: JsonObject;
  /** Receives the arguments exactly as validated: no coercion, no defaults, nothing removed. */
  readonly handler: (args: Args, ctx: HandlerContext) => ToolResult | Promise<ToolResult>;
}

export interface ResourceDefinition {
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly size?: number;
  readonly annotations?: Annotations;
  readonly icons?: readonly Icon[];
  readonly _meta?: JsonObject;
  /** Returns the resource's contents; `undefined` means it does not exist (answered as not found). */
  readonly read: (ctx: HandlerContext) => ReadResourceReturn | Promise<ReadResourceReturn>;
}

export type ReadResourceReturn = readonly ResourceContents[] | undefined;

/** Completes one argument or variable: at most 100 values reach the client. */
export type Completer = (
  value: string,
  context: { readonly arguments: Readonly<Record<string, string>>; readonly ctx: HandlerContext },
) => readonly string[] | Promise<readonly string[]>;

export interface ResourceTemplateDefinition {
  /** RFC 6570 with `{var}` and `{+var}` expressions only. */
  readonly uriTemplate: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly annotations?: Annotations;
  readonly icons?: readonly Icon[];
  readonly _meta?: JsonObject;
  /** Called only for a URI this template matched; `variables` are strictly percent-decoded. */
  readonly read: (
    uri: string,
    variables: Readonly<Record<string, string>>,
    ctx: HandlerContext,
  ) => ReadResourceReturn | Promise<ReadResourceReturn>;
  readonly complete?: Readonly<Record<string, Completer>>;
}

export interface PromptArgumentDefinition {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly required?: boolean;
  readonly complete?: Completer;
}

export interface PromptMessage {
  readonly role: 'user' | 'assistant';
  readonly content: ContentBlock;
}

export interface PromptResult {
  readonly description?: string;
  readonly messages: readonly PromptMessage[];
  readonly _meta?: JsonObject;
}

export interface PromptDefinition {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments?: readonly PromptArgumentDefinition[];
  readonly icons?: readonly Icon[];
  readonly _meta?: JsonObject;
  /** Receives only declared arguments, each a string, required ones present. */
  readonly get: (
    args: Readonly<Record<string, string>>,
    ctx: HandlerContext,
  ) => PromptResult | Promise<PromptResult>;
}

/** Cache hints on 2026-07-28 results: `ttlMs` 0 and `private` unless the host widens them. */
export interface CacheHint {
  readonly ttlMs: number;
  readonly scope: 'public' | 'private';
}

export interface ServerDefinition {
  readonly name: string;
  readonly version: string;
  readonly title?: string;
  readonly instructions?: string;
  readonly tools?: readonly ToolDefinition<never>[];
  readonly resources?: readonly ResourceDefinition[];
  readonly resourceTemplates?: readonly ResourceTemplateDefinition[];
  readonly prompts?: readonly PromptDefinition[];
  /** Narrows what is served; default both revisions. */
  readonly supportedVersions?: readonly Revision[];
  /** Items per page of every list; default 50. */
  readonly pageSize?: number;
  readonly cache?: {
    readonly discover?: CacheHint;
    readonly tools?: CacheHint;
    readonly resources?: CacheHint;
    readonly prompts?: CacheHint;
  };
}
