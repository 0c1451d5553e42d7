/**
 * How the client authenticates at the token endpoint: `client_secret_basic` (RFC 6749 §2.3.1,
 * the id and secret form-encoded before base64), `client_secret_post`, `none` (a public client;
 * PKCE binds the code), or `private_key_jwt` (RFC 7523 §2.2: an assertion signed with the host's
 * key, for the issuer as audience, living 60 seconds, with a fresh `jti`).
 */
import { createPrivateKey, randomUUID, sign } from 'node:crypto';
import { authError } from './http.js';

export type TokenEndpointAuth =
  | { readonly method: 'none'; readonly clientId: string }
  | {
      readonly method: 'client_secret_basic' | 'client_secret_post';
      readonly clientId: string;
      readonly clientSecret: string;
    }
  | {
      readonly method: 'private_key_jwt';
      readonly clientId: string;
      readonly privateKey: string;
      readonly algorithm: 'ES256' | 'RS256';
    };

export function applyClientAuth(
  auth: TokenEndpointAuth,
  issuer: string,
  form: Record<string, string>,
  headers: Record<string, string>,
): void {
  switch (auth.method) {
    case 'none':
      form['client_id'] = auth.clientId;
      return;
    case 'client_secret_post':
      form['client_id'] = auth.clientId;
      form['client_secret'] = auth.clientSecret;
      return;
    case 'client_secret_basic': {
      const pair = `${encodeURIComponent(auth.clientId)}:${encodeURIComponent(auth.clientSecret)}`;
      headers['authorization'] = `Basic ${Buffer.from(pair).toString('base64')}`;
      return;
    }
    case 'private_key_jwt':
      form['client_id'] = auth.clientId;
      form['client_assertion_type'] = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
      form['client_assertion'] = clientAssertion(auth, issuer);
      return;
  }
}

function clientAssertion(
  auth: Extract<TokenEndpointAuth, { method: 'private_key_jwt' }>,
  audience: string,
): string {
  const now = Math.floor(Date.now() / 1000);
  const header = Buffer.from(JSON.stringify({ alg: auth.algorithm, typ: 'JWT' })).toString('base64url');
  const payload = Buffer.from(
    JSON.stringify({
      iss: auth.clientId,
      sub: auth.clientId,
      aud: audience,
      iat: now,
      exp: now + 60,
      jti: randomUUID(),
    }),
  ).toString('base64url');
  let key: ReturnType<typeof createPrivateKey>;
  try {
    key = createPrivateKey(auth.privateKey);
  } catch (cause) {
    throw authError('private-key-invalid', 'the private key for private_key_jwt could not be read', cause);
  }
  const input = Buffer.from(`${header}.${payload}`);
  const signature =
    auth.algorithm === 'ES256'
      ? sign('sha256', input, { key, dsaEncoding: 'ieee-p1363' })
      : sign('sha256', input, key);
  return `${header}.${payload}.${signature.toString('base64url')}`;
}
