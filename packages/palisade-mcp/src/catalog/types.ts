/**
 * What a host declares: the catalog (tools, resources, templates, prompts) and the handlers
 * behind it. Palisade holds no tool of its own; everything here comes from the host and is
 * checked once, when the server is constructed.
 */

import type { Revision } from '../revisions.js';
import type { TraceContext } from '../telemetry/dispatch-channel.js';
import type { ChangeBus } from './changes.js';
import type { InputRequest, JsonObject } from './json-values.js';
import type { StandardJSONSchemaV1 } from './standard-schema.js';
import type { TaskSupport, TasksOptions } from './task-store.js';

export type { InputRequest, InputRequestMethod, JsonObject } from './json-values.js';
export type { TaskSupport } from './task-store.js';

export type LogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/** What a handler may use, and nothing more. */
export interface HandlerContext {
  /** Fires when the client cancels (stdio `notifications/cancelled`, a closed HTTP stream on 2026-07-28) or the transport closes. */
  readonly signal: AbortSignal;
  /**
   * The revision this request is served under. Palisade shapes what a handler returns to it (a
   * member or content block the revision does not define is left out); a handler that wants to
   * send an older client something else instead reads it here.
   */
  readonly revision: Revision;
  /**
   * The request's `params._meta` as the client sent it, less `baggage` unless the server opted in
   * (`traceContext: { baggage: true }`): the client's word, never evidence for authorization.
   */
  readonly meta: Readonly<JsonObject>;
  /** Capabilities the client declared (2026-07-28: on this request; the handshake revisions: at `initialize`). The client's word. */
  readonly clientCapabilities: Readonly<JsonObject>;
  /**
   * The W3C trace context the request carried in `_meta` (`traceparent`, `tracestate`; `baggage`
   * only with the server option `traceContext: { baggage: true }`), bounded and checked;
   * `undefined` without a well-formed `traceparent`. The client's word: a trace to join, not an identity.
   */
  readonly traceContext: TraceContext | undefined;
  /** What the transport's `authorize` hook returned; `undefined` on stdio. */
  readonly auth: unknown;
  /** Reports progress when the client asked for it (a `progressToken`); values must strictly increase, others are dropped. */
  progress(progress: number, total?: number, message?: string): void;
  /** Sends a log message on this request's stream, only when the client asked for that level. */
  log(level: LogLevel, data: unknown, logger?: string): void;
  /**
   * 2026-07-28, `tools/call`, `prompts/get` and `resources/read` only: return this value instead of
   * the result to ask the client for input (MRTR). Palisade checks each request against the
   * capabilities this request declared (-32021 otherwise) and seals `state` with the host's
   * `requestState.sealer`. On a handshake revision (2025-11-25 and older) it throws a
   * `PalisadeError` with code `PALISADE_ERR_INPUT_REQUIRED_UNAVAILABLE`, so a handler serving
   * every revision can fall back.
   */
  inputRequired(request: InputRequiredRequest): InputRequired;
  /**
   * The retry's `params.inputResponses` (2026-07-28, MRTR methods), checked to be an object of
   * objects and nothing more: the client's word, keyed as the handler asked. `undefined` otherwise.
   */
  readonly inputResponses: Readonly<Record<string, Readonly<JsonObject>>> | undefined;
  /**
   * The `state` this handler passed to `inputRequired` on the previous round, recovered from a
   * `requestState` the sealer opened and Palisade checked (same principal, method and params, not
   * expired). `undefined` on a first call, without a sealer, or when no state was given.
   */
  readonly requestState: unknown;
}

/** The argument of `ctx.inputRequired`. */
export interface InputRequiredRequest {
  /** At most MAX_INPUT_REQUESTS, each key at most MAX_INPUT_REQUEST_KEY_CHARS long. */
  readonly requests: Readonly<Record<string, InputRequest>>;
  /** Plain JSON data handed back as `ctx.requestState` on the retry; needs `requestState.sealer`. */
  readonly state?: unknown;
}

declare const inputRequiredBrand: unique symbol;

/** The opaque value `ctx.inputRequired` returns; only Palisade makes one, a look-alike object is not one. */
export interface InputRequired {
  readonly [inputRequiredBrand]: true;
}

/**
 * Seals and opens `requestState` bytes. Palisade holds no key: the host's sealer must protect
 * integrity (an HMAC or AEAD under a key it keeps) and `open` returns `undefined` for any token it
 * did not seal. Palisade binds the bytes to the principal, method, params and an expiry first.
 */
export interface RequestStateSealer {
  seal(bytes: Uint8Array): string | Promise<string>;
  open(token: string): Uint8Array | undefined | Promise<Uint8Array | undefined>;
}

export interface RequestStateOptions {
  readonly sealer: RequestStateSealer;
  /** Lifetime of an issued token, in milliseconds: default 300,000, at most 3,600,000. */
  readonly ttlMs?: number;
  /** Names who a request acts for; default the canonical JSON of `ctx.auth` ('' when undefined). */
  readonly principal?: (auth: unknown) => string;
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

/** `Structured` is what the tool's outputSchema admits, when that schema is typed (a Standard Schema). */
export interface ToolResult<Structured = unknown> {
  readonly content?: readonly ContentBlock[];
  readonly structuredContent?: Structured;
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

/**
 * A tool schema: JSON Schema 2020-12 as a plain object, or a Standard Schema that can produce
 * one (zod 4, ArkType, valibot through `toStandardJsonSchema`), converted once at construction.
 */
export type ToolSchema = JsonObject | StandardJSONSchemaV1;

export interface ToolDefinition<Args extends JsonObject = JsonObject, Structured = unknown> {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  /** With `type: "object"` at the root: advertised in `tools/list` and enforced in `tools/call`. */
  readonly inputSchema: ToolSchema;
  readonly outputSchema?: ToolSchema;
  readonly annotations?: ToolAnnotations;
  readonly icons?: readonly Icon[];
  readonly _meta?: JsonObject;
  /** Client capabilities a call needs (e.g. `{ sampling: {} }`); a request lacking one is answered -32021. */
  readonly requiredClientCapabilities?: JsonObject;
  /** Tasks extension (needs `tasks.store`): whether a 2026-07-28 call runs as a task. Not listed. */
  readonly execution?: { readonly taskSupport?: TaskSupport };
  /** Receives the arguments exactly as validated: no coercion, no defaults, nothing removed. */
  readonly handler: (
    args: Args,
    ctx: HandlerContext,
  ) => ToolResult<Structured> | InputRequired | Promise<ToolResult<Structured> | InputRequired>;
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
  /** Client capabilities a read needs; a request lacking one is answered -32021. */
  readonly requiredClientCapabilities?: JsonObject;
  /** Returns the resource's contents; `undefined` means it does not exist (answered as not found). */
  readonly read: (
    ctx: HandlerContext,
  ) => ReadResourceReturn | InputRequired | Promise<ReadResourceReturn | InputRequired>;
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
  /** Client capabilities a read needs; a request lacking one is answered -32021. */
  readonly requiredClientCapabilities?: JsonObject;
  /** Called only for a URI this template matched; `variables` are strictly percent-decoded. */
  readonly read: (
    uri: string,
    variables: Readonly<Record<string, string>>,
    ctx: HandlerContext,
  ) => ReadResourceReturn | InputRequired | Promise<ReadResourceReturn | InputRequired>;
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
  /** Client capabilities a get needs; a request lacking one is answered -32021. */
  readonly requiredClientCapabilities?: JsonObject;
  /** Receives only declared arguments, each a string, required ones present. */
  readonly get: (
    args: Readonly<Record<string, string>>,
    ctx: HandlerContext,
  ) => PromptResult | InputRequired | Promise<PromptResult | InputRequired>;
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
  /**
   * Narrows what is served; default every revision (2026-07-28, and through `initialize`
   * 2025-11-25, 2025-06-18, 2025-03-26, and 2024-11-05 over stdio).
   */
  readonly supportedVersions?: readonly Revision[];
  /** Items per page of every list; default 50. */
  readonly pageSize?: number;
  readonly cache?: {
    readonly discover?: CacheHint;
    readonly tools?: CacheHint;
    readonly resources?: CacheHint;
    readonly prompts?: CacheHint;
  };
  /** Multi-round-trip requests: without it no `requestState` is issued and an arriving one is ignored. */
  readonly requestState?: RequestStateOptions;
  /** The tasks extension (SEP-2663, 2026-07-28): offered only with the host's task store. */
  readonly tasks?: TasksOptions;
  /**
   * The changes this host announces (`server.notifyListChanged`, `server.notifyResourceUpdated`).
   * Each is off unless set: only a declared kind is advertised (`listChanged`, `subscribe`) and
   * delivered, on a 2026-07-28 `subscriptions/listen` stream or a 2025-11-25 stdio connection.
   */
  readonly notifications?: {
    readonly toolsListChanged?: boolean;
    readonly promptsListChanged?: boolean;
    readonly resourcesListChanged?: boolean;
    readonly resourceSubscriptions?: boolean;
    /** How long one listen stream is held before the server ends it with its result. Default 1,800,000 (30 min), at most one day. */
    readonly listenLifetimeMs?: number;
    /**
     * How changes reach the subscriptions of every process serving this server. Default: this
     * process alone. Many processes behind a load balancer share one (`palisade-mcp-postgres`).
     */
    readonly bus?: ChangeBus;
  };
  /**
   * The level 2025-11-25 requests log at before the client sends `logging/setLevel` (stdio) or
   * always (stateless HTTP, where no session holds a level). Default `info`; `off` sends none.
   * 2026-07-28 requests log only at the level their own `_meta` names.
   */
  readonly defaultLogLevel?: LogLevel | 'off';
  /**
   * What of a request's W3C trace context reaches `ctx.traceContext` and the dispatch channel.
   * `traceparent` and `tracestate` always do when well formed; `baggage` only with
   * `baggage: true` (default false), since baggage is arbitrary key-value data from the caller.
   */
  readonly traceContext?: { readonly baggage?: boolean };
}
