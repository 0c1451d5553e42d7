/**
 * Types a prompt's `get` from its own `arguments` list: each declared name is a key, a string,
 * present when `required: true` and optional otherwise. Palisade delivers exactly that (only
 * declared arguments, each a string, required ones present), so the type holds. It returns the
 * definition unchanged; the checks happen in `createServer`.
 */
import type {
  HandlerContext,
  InputRequired,
  PromptArgumentDefinition,
  PromptDefinition,
  PromptResult,
} from './types.js';

/** The arguments a prompt's `get` receives, from its declared list. */
export type PromptArgs<Declared extends readonly PromptArgumentDefinition[]> = {
  readonly [Argument in Declared[number] as Argument extends { readonly required: true }
    ? Argument['name']
    : never]: string;
} & {
  readonly [Argument in Declared[number] as Argument extends { readonly required: true }
    ? never
    : Argument['name']]?: string;
};

export type TypedPromptDefinition<Declared extends readonly PromptArgumentDefinition[]> = Omit<
  PromptDefinition,
  'arguments' | 'get'
> & {
  readonly arguments?: Declared;
  readonly get: (
    args: PromptArgs<Declared>,
    ctx: HandlerContext,
  ) => PromptResult | InputRequired | Promise<PromptResult | InputRequired>;
};

export function definePrompt<const Declared extends readonly PromptArgumentDefinition[] = []>(
  definition: TypedPromptDefinition<Declared>,
): PromptDefinition {
  return definition as unknown as PromptDefinition;
}
