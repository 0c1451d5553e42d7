/**
 * Types a tool's handler from the arguments its schema admits. It returns the definition
 * unchanged: the checks happen in `createServer`, once for the whole catalog.
 */
import type { JsonObject, ToolDefinition } from './types.js';

export function defineTool<Args extends JsonObject>(definition: ToolDefinition<Args>): ToolDefinition<never> {
  return definition as unknown as ToolDefinition<never>;
}
