/**
 * Types a resource template's `read` (and `complete`) from its URI template: each `{name}` or
 * `{+name}` expression is a key of `variables`, always a string, since a URI the template matched
 * gives every variable a value. It returns the definition unchanged; the template is parsed and
 * checked in `createServer`.
 */
import type {
  Completer,
  HandlerContext,
  InputRequired,
  ReadResourceReturn,
  ResourceTemplateDefinition,
} from './types.js';

/** The variable names of a URI template literal: `'file:///{+path}{name}'` → `'path' | 'name'`. */
export type UriTemplateVariables<Template extends string> =
  Template extends `${string}{${infer Expression}}${infer Rest}`
    ? (Expression extends `+${infer Name}` ? Name : Expression) | UriTemplateVariables<Rest>
    : never;

export type TypedResourceTemplateDefinition<Template extends string> = Omit<
  ResourceTemplateDefinition,
  'uriTemplate' | 'read' | 'complete'
> & {
  readonly uriTemplate: Template;
  readonly read: (
    uri: string,
    variables: Readonly<Record<UriTemplateVariables<Template>, string>>,
    ctx: HandlerContext,
  ) => ReadResourceReturn | InputRequired | Promise<ReadResourceReturn | InputRequired>;
  readonly complete?: Readonly<Partial<Record<UriTemplateVariables<Template>, Completer>>>;
};

export function defineResourceTemplate<const Template extends string>(
  definition: TypedResourceTemplateDefinition<Template>,
): ResourceTemplateDefinition {
  return definition as unknown as ResourceTemplateDefinition;
}
