/** The shapes a host sees: results as the spec defines them, loosely typed where the spec is open. */

export type JsonObject = Record<string, unknown>;

export interface Implementation {
  readonly name: string;
  readonly version: string;
  readonly title?: string;
}

export interface ServerDescription {
  /** The revision both sides speak on this connection. */
  readonly revision: string;
  readonly capabilities: JsonObject;
  readonly serverInfo: Implementation | undefined;
  readonly instructions: string | undefined;
  /** 2026-07-28: every revision the server listed in `server/discover`. */
  readonly supportedVersions: readonly string[];
}

export interface ContentBlock {
  readonly type: string;
  readonly [member: string]: unknown;
}

export interface Tool {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: JsonObject;
  readonly outputSchema?: JsonObject;
  readonly annotations?: JsonObject;
  readonly [member: string]: unknown;
}

export interface CallToolResult {
  readonly content: readonly ContentBlock[];
  readonly structuredContent?: unknown;
  readonly isError?: boolean;
  readonly [member: string]: unknown;
}

export interface Resource {
  readonly uri: string;
  readonly name: string;
  readonly [member: string]: unknown;
}

export interface ResourceTemplate {
  readonly uriTemplate: string;
  readonly name: string;
  readonly [member: string]: unknown;
}

export interface ResourceContents {
  readonly uri: string;
  readonly mimeType?: string;
  readonly text?: string;
  readonly blob?: string;
}

export interface ReadResourceResult {
  readonly contents: readonly ResourceContents[];
  readonly [member: string]: unknown;
}

export interface Prompt {
  readonly name: string;
  readonly [member: string]: unknown;
}

export interface GetPromptResult {
  readonly messages: readonly { readonly role: string; readonly content: ContentBlock }[];
  readonly [member: string]: unknown;
}

export interface CompleteResult {
  readonly completion: {
    readonly values: readonly string[];
    readonly total?: number;
    readonly hasMore?: boolean;
  };
}

export interface Root {
  readonly uri: string;
  readonly name?: string;
}

export interface ElicitResult {
  readonly action: 'accept' | 'decline' | 'cancel';
  readonly content?: JsonObject;
}

export interface CreateMessageResult {
  readonly role: 'assistant' | 'user';
  readonly content: ContentBlock | readonly ContentBlock[];
  readonly model: string;
  readonly stopReason?: string;
  readonly [member: string]: unknown;
}

export interface Page<T> {
  readonly items: readonly T[];
  readonly nextCursor: string | undefined;
}

export interface Progress {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

/** What each call may carry. */
export interface CallOptions {
  /** Cancels the call: a stream closed (2026-07-28 over HTTP) or `notifications/cancelled` sent. */
  readonly signal?: AbortSignal;
  /** This call's deadline; default the client's `requestTimeoutMs`. */
  readonly timeoutMs?: number;
  /** Asks for progress (`_meta.progressToken`) and receives each notification. */
  readonly onProgress?: (progress: Progress) => void;
  /** Extra `_meta` members for the request (reserved keys are the client's). */
  readonly meta?: JsonObject;
}
