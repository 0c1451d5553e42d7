/**
 * Who a request acts for, as handlers see it (`ctx.auth`): built from claims already judged,
 * frozen all the way down so no handler can change what the next one reads. It never holds the
 * token: a handler cannot pass on what it was never given (MCP forbids token passthrough).
 */

export interface Principal {
  /** `sub`: the resource owner, or the client itself under client credentials. */
  readonly subject: string | undefined;
  /** `client_id` (RFC 9068, RFC 7662), else `azp`. */
  readonly clientId: string | undefined;
  /** From `scope` (space-separated) or, failing that, `scp` (a list, as some providers send). */
  readonly scopes: readonly string[];
  /** `exp` in seconds since the epoch, when the token has one. */
  readonly expiresAt: number | undefined;
  /** The issuer that minted the token; for an introspected token without `iss`, the one configured. */
  readonly issuer: string | undefined;
  /** How the token was judged: a signed JWT checked here, or an answer from the issuer's introspection endpoint. */
  readonly verifiedBy: 'jwt' | 'introspection';
  /** Every claim, as verified. */
  readonly claims: Readonly<Record<string, unknown>>;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

/** The scopes a token grants: `scope` when it is a string, else `scp` when a string or a list of strings. */
export function scopesOf(claims: Readonly<Record<string, unknown>>): readonly string[] | undefined {
  const { scope, scp } = claims;
  if (typeof scope === 'string') return scope.split(' ').filter((entry) => entry !== '');
  if (scope !== undefined) return undefined;
  if (typeof scp === 'string') return scp.split(' ').filter((entry) => entry !== '');
  if (Array.isArray(scp)) return scp.every((entry) => typeof entry === 'string') ? scp : undefined;
  return scp === undefined ? [] : undefined;
}

export function principalOf(
  claims: Record<string, unknown>,
  scopes: readonly string[],
  verifiedBy: Principal['verifiedBy'],
  fallbackIssuer: string | undefined,
): Principal {
  const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
  return Object.freeze({
    subject: text(claims['sub']),
    clientId: text(claims['client_id']) ?? text(claims['azp']),
    scopes: Object.freeze([...scopes]),
    expiresAt: typeof claims['exp'] === 'number' ? claims['exp'] : undefined,
    issuer: text(claims['iss']) ?? fallbackIssuer,
    verifiedBy,
    claims: deepFreeze(claims),
  });
}
