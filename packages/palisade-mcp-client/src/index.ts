/** The public surface of `palisade-mcp-client`. */

export { ClientError, type ClientErrorCode, type RpcErrorBody } from './errors.js';
export * as limits from './limits.js';
export { type AddressClass, classifyAddress } from './net/addresses.js';
export type { TlsOptions } from './net/pinned-agent.js';
export type { ResolvedAddress, Resolver } from './net/target-policy.js';
export {
  type LoopbackRedirect,
  type LoopbackRedirectOptions,
  loopbackRedirect,
} from './oauth/loopback-redirect.js';
export {
  type AuthorizationRequest,
  type Authorize,
  OAuthClient,
  type OAuthClientOptions,
  oauthClient,
} from './oauth/oauth-client.js';
export {
  memoryTokenStore,
  type StoredClient,
  type StoredTokens,
  type TokenStore,
} from './oauth/token-store.js';
export { Client, type ClientOptions, createClient } from './protocol/client.js';
export type {
  ElicitationHandler,
  HandlerContext,
  RootsSource,
  SamplingHandler,
} from './protocol/host-handlers.js';
export type * from './protocol/types.js';
export type { AuthContext, HttpAuth } from './transport/http/http-auth.js';
export { HttpTransport, type HttpTransportOptions, httpTransport } from './transport/http/http-transport.js';
export {
  InProcessTransport,
  inProcessTransport,
  type ServerConnector,
  type ServerEnd,
} from './transport/in-process.js';
export { BASE_ENVIRONMENT } from './transport/stdio/spawn.js';
export {
  StdioTransport,
  type StdioTransportOptions,
  stdioTransport,
} from './transport/stdio/stdio-transport.js';
export type { SendContext, Transport, TransportSink } from './transport/types.js';
export { type ClientWarning, CREDENTIAL_HEADERS, type WarningSink } from './trust/boundary.js';
export type { ConsentAnswer, ConsentExpiry, ConsentHandler, ConsentRequest } from './trust/consent.js';
export { DEFAULT_TRUSTED_ORIGINS } from './trust/origins.js';
export type { TrustOptions } from './trust/trust-options.js';
