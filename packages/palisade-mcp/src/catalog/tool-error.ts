/**
 * The deliberate way for a tool handler to tell the model what went wrong. A `ToolError` thrown
 * (or rejected) by a tool handler is answered as a tool result with `isError: true` whose one text
 * block is the error's message, cut to MAX_TOOL_ERROR_CHARS, so the model can read it and try
 * again. Nothing else of the error crosses the wire: not its name, stack, cause or properties.
 * Every other thrown value stays an opaque -32603 "Internal error", its description in the host's
 * log only. It is not a `PalisadeError`: those are Palisade refusing the host's own code, this is
 * the host speaking to its client. `instanceof` works across two copies of the package through a
 * `Symbol.for` brand, as for `PalisadeError`.
 */
import { MAX_TOOL_ERROR_CHARS } from '../limits.js';
import type { JsonObject } from './types.js';

const BRAND = Symbol.for('palisade-mcp.tool-error');

export class ToolError extends Error {
  /**
   * @param message what the model is told, as it is; write it for the model (what was wrong and
   *   what to do instead), and keep secrets, stack traces and raw upstream answers out of it.
   * @param options `cause` stays on the error for the host's own code and is never sent.
   */
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ToolError';
  }

  get [BRAND](): true {
    return true;
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }
}

/**
 * The tool result a `ToolError` becomes. Its message is read once; one that is not a string (a
 * subclass or another copy that broke the contract) throws, which the dispatch site treats as any
 * other host fault.
 */
export function toolErrorResult(error: ToolError): JsonObject {
  const message: unknown = error.message;
  if (typeof message !== 'string') throw new TypeError('a ToolError message must be a string');
  return { content: [{ type: 'text', text: bounded(message) }], isError: true };
}

function bounded(text: string): string {
  if (text.length <= MAX_TOOL_ERROR_CHARS) return text;
  let end = MAX_TOOL_ERROR_CHARS - 1;
  const last = text.charCodeAt(end - 1);
  // A high surrogate whose low half would be cut off goes with it.
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}
