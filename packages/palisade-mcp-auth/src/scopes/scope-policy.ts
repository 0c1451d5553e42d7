/**
 * Which scopes a request needs: those of the whole server, of its method, and of the tool,
 * prompt or resource it names. A broader scope may imply narrower ones (`implied`), as the MCP
 * authorization spec asks a server to honour. The needed set is computed whole, so one
 * `insufficient_scope` challenge names every scope the operation needs, not one at a time.
 */

export interface ScopePolicy {
  readonly required: readonly string[];
  readonly methods: ReadonlyMap<string, readonly string[]>;
  readonly tools: ReadonlyMap<string, readonly string[]>;
  readonly resources: ReadonlyMap<string, readonly string[]>;
  readonly prompts: ReadonlyMap<string, readonly string[]>;
  /** Each scope mapped to every scope it implies, transitively, itself excluded. */
  readonly implied: ReadonlyMap<string, readonly string[]>;
}

/** Whether any scope depends on the request's method or name (which may need its body). */
export function dependsOnOperation(policy: ScopePolicy): boolean {
  return policy.methods.size + policy.tools.size + policy.resources.size + policy.prompts.size > 0;
}

/** The methods whose `params.name` (or `params.uri`) a name-keyed scope applies to. */
const NAMED: Readonly<Record<string, 'tools' | 'prompts' | 'resources'>> = {
  'tools/call': 'tools',
  'prompts/get': 'prompts',
  'resources/read': 'resources',
  'resources/subscribe': 'resources',
  'resources/unsubscribe': 'resources',
};

/** The family a method's name belongs to, when a scope can be keyed by that name. */
export function namedFamily(method: string): 'tools' | 'prompts' | 'resources' | undefined {
  return Object.hasOwn(NAMED, method) ? NAMED[method] : undefined;
}

/** Every scope an operation needs, each once, in the order the policy lists them. */
export function neededScopes(
  policy: ScopePolicy,
  method: string | undefined,
  name: string | undefined,
): readonly string[] {
  const needed = new Set(policy.required);
  if (method !== undefined) {
    for (const scope of policy.methods.get(method) ?? []) needed.add(scope);
    const family = namedFamily(method);
    if (family !== undefined && name !== undefined) {
      for (const scope of policy[family].get(name) ?? []) needed.add(scope);
    }
  }
  return [...needed];
}

/** Whether `granted` (with what it implies) covers every scope in `needed`. */
export function covers(policy: ScopePolicy, granted: readonly string[], needed: readonly string[]): boolean {
  if (needed.length === 0) return true;
  const held = new Set<string>();
  for (const scope of granted) {
    held.add(scope);
    for (const narrower of policy.implied.get(scope) ?? []) held.add(narrower);
  }
  return needed.every((scope) => held.has(scope));
}
