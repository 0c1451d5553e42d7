/**
 * What the HTTP transport asks of an authorization provider (the OAuth client, oauth/): the
 * credential headers for the next request, and whether to try again after a 401 or a 403
 * `insufficient_scope` (having obtained a new token). Every request the provider makes goes
 * through the same outbound path as the MCP exchange.
 */
import type { Outbound } from '../../net/outbound.js';

export interface AuthContext {
  /** The MCP endpoint the token is for. */
  readonly resource: URL;
  /** The outbound path: trust boundary, target policy, pinned connections. */
  readonly outbound: Outbound;
  /** The revision in force, if one is (the authorization rules differ a little by revision). */
  readonly revision: string | undefined;
}

export interface HttpAuth {
  /** Headers carrying the current credential, if any (refreshing an expired token first). */
  headers(context: AuthContext): Promise<Readonly<Record<string, string>>>;
  /** A 401 with this `WWW-Authenticate`: true once a new credential is ready to retry with. */
  unauthorized(context: AuthContext, challenge: string | undefined): Promise<boolean>;
  /** A 403 with this `WWW-Authenticate` (`insufficient_scope`): true once a broader credential is ready. */
  forbidden(context: AuthContext, challenge: string | undefined): Promise<boolean>;
}
