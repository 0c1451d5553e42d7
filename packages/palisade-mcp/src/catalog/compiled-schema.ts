/**
 * What a compiled host schema is to the rest of the package: the frozen copy that is advertised,
 * and the one check that is enforced. A leaf: schema.ts builds these and mcp-header-annotations.ts
 * reads them, while schema.ts calls into mcp-header-annotations.ts, so the type lives apart and
 * the two files never import each other both ways.
 */

export interface CompiledSchema {
  /** The schema as advertised: a deep-frozen copy of what the host declared. */
  readonly json: Readonly<Record<string, unknown>>;
  /** The message is safe to send to a client: it never carries the client's values. */
  validate(value: unknown): { ok: true } | { ok: false; message: string };
}
