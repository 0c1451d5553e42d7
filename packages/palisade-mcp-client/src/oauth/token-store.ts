/**
 * Where tokens and registrations are kept: the host's store, or memory by default. Keys name the
 * authorization server's issuer and the resource, so a token issued by one server is never
 * offered to another, and a registration with one issuer is never reused at another.
 */

export interface StoredTokens {
  readonly accessToken: string;
  readonly tokenType: string;
  readonly refreshToken?: string;
  /** ms since the epoch. */
  readonly expiresAt?: number;
  readonly scope?: string;
}

export interface StoredClient {
  readonly clientId: string;
  readonly clientSecret?: string;
  readonly tokenEndpointAuthMethod?: string;
}

export interface TokenStore {
  getTokens(issuer: string, resource: string): StoredTokens | undefined | Promise<StoredTokens | undefined>;
  setTokens(issuer: string, resource: string, tokens: StoredTokens | undefined): void | Promise<void>;
  getClient(issuer: string): StoredClient | undefined | Promise<StoredClient | undefined>;
  setClient(issuer: string, client: StoredClient | undefined): void | Promise<void>;
}

export function memoryTokenStore(): TokenStore {
  const tokens = new Map<string, StoredTokens>();
  const clients = new Map<string, StoredClient>();
  const key = (issuer: string, resource: string): string => JSON.stringify([issuer, resource]);
  return {
    getTokens: (issuer, resource) => tokens.get(key(issuer, resource)),
    setTokens: (issuer, resource, value) => {
      if (value === undefined) tokens.delete(key(issuer, resource));
      else tokens.set(key(issuer, resource), value);
    },
    getClient: (issuer) => clients.get(issuer),
    setClient: (issuer, value) => {
      if (value === undefined) clients.delete(issuer);
      else clients.set(issuer, value);
    },
  };
}
