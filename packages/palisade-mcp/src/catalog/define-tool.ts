/**
 * Types a tool's handler from the arguments its schema admits. It returns the definition
 * unchanged: the checks, and the conversion of a Standard Schema to JSON Schema, happen in
 * `createServer`, once for the whole catalog.
 *
 * With a Standard Schema (zod, ArkType, valibot) the handler's `args` are the schema's input
 * type, and `structuredContent` the outputSchema's: the types of what the enforced JSON Schema
 * admits. A refinement, transform or default, which would make the two differ, is refused at
 * construction. With plain JSON Schema the host names the type (`defineTool<{ text: string }>`).
 */
import type { StandardJSONSchemaV1 } from './standard-schema.js';
import type { JsonObject, ToolDefinition, ToolSchema } from './types.js';

/** The type a Standard Schema admits; `unknown` for plain JSON Schema or none. */
export type InferSchemaInput<Schema> = Schema extends StandardJSONSchemaV1
  ? StandardJSONSchemaV1.InferInput<Schema>
  : unknown;

/**
 * The handler's `args`: a Standard Schema's input type (an annotation cannot widen it), else the
 * type the host named for its JSON Schema, else any JSON object.
 */
export type ToolArgs<Args extends JsonObject, Input> = [Input] extends [StandardJSONSchemaV1]
  ? Extract<StandardJSONSchemaV1.InferInput<Input>, JsonObject>
  : [Args] extends [never]
    ? JsonObject
    : Args;

/**
 * `unknown`, whatever `Output` is: naming `Output` in the handler's parameter type makes the
 * compiler settle it (to its default when no outputSchema is given) before it reads the handler's
 * body, so `new Promise((resolve) => …)` there is typed from the result type, not left `unknown`.
 */
type FixedBy<Output> = [Output] extends [never] ? unknown : unknown;

/** Refuses, in types, a Standard Schema whose input is not an object: a tool's arguments are one. */
type ObjectInput<Input> = Input extends StandardJSONSchemaV1
  ? StandardJSONSchemaV1.InferInput<Input> extends JsonObject
    ? unknown
    : { readonly '~standard': { readonly types?: { readonly input: JsonObject } } }
  : unknown;

/** A tool definition whose handler is typed from `Args` or from its schemas. */
export type TypedToolDefinition<
  Args extends JsonObject,
  Input extends ToolSchema,
  Output extends ToolSchema | undefined,
> = Omit<
  ToolDefinition<ToolArgs<Args, Input> & FixedBy<Output>, InferSchemaInput<Output>>,
  'inputSchema' | 'outputSchema'
> & {
  readonly inputSchema: Input & ObjectInput<Input>;
  readonly outputSchema?: Output;
};

/**
 * `defineTool({ inputSchema: z.object({...}), handler })` types `args` from the schema;
 * `defineTool<{ text: string }>({ inputSchema: {...JSON Schema}, handler })` from the type named.
 */
export function defineTool<
  Args extends JsonObject = never,
  Input extends ToolSchema = ToolSchema,
  Output extends ToolSchema | undefined = ToolSchema | undefined,
>(definition: TypedToolDefinition<Args, Input, Output>): ToolDefinition<never> {
  return definition as unknown as ToolDefinition<never>;
}
