/**
 * Keys and tokens for the tests: real key pairs, tokens signed by jose exactly as an issuer
 * signs them, and the hostile ones built byte by byte where no library would sign them.
 */
import {
  createHash,
  createHmac,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
  randomUUID,
  sign,
} from 'node:crypto';
import { SignJWT } from 'jose';

export const RESOURCE = 'https://mcp.example.com/mcp';
export const ISSUER = 'https://auth.example.com';

export interface TestKey {
  readonly alg: 'ES256' | 'RS256' | 'EdDSA' | 'PS256' | 'ES384';
  readonly kid: string;
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
  readonly jwk: Record<string, string>;
}

export function testKey(alg: TestKey['alg'] = 'ES256', kid = `k-${randomUUID()}`): TestKey {
  const pair =
    alg === 'RS256' || alg === 'PS256'
      ? generateKeyPairSync('rsa', { modulusLength: 2048 })
      : alg === 'EdDSA'
        ? generateKeyPairSync('ed25519')
        : generateKeyPairSync('ec', { namedCurve: alg === 'ES384' ? 'P-384' : 'P-256' });
  const jwk = {
    ...(pair.publicKey.export({ format: 'jwk' }) as Record<string, string>),
    kid,
    use: 'sig',
    alg,
  };
  return { alg, kid, privateKey: pair.privateKey, publicKey: pair.publicKey, jwk };
}

export function jwksOf(...keys: TestKey[]): { keys: Record<string, string>[] } {
  return { keys: keys.map((key) => key.jwk) };
}

export const now = (): number => Math.floor(Date.now() / 1000);

/** Claims a good token carries: ours, unexpired, for this resource. */
export function goodClaims(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    iss: ISSUER,
    aud: RESOURCE,
    sub: 'user-1',
    client_id: 'client-1',
    scope: 'mcp:tools',
    iat: now(),
    exp: now() + 300,
    jti: randomUUID(),
    ...extra,
  };
}

/** A token signed by `key`, its header `{ alg, kid, typ: 'at+jwt' }` plus `header`. */
export function mint(
  key: TestKey,
  claims: Record<string, unknown> = goodClaims(),
  header: Record<string, unknown> = {},
): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'at+jwt', ...header })
    .sign(key.privateKey);
}

export const b64 = (value: unknown): string =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

/** `alg: none`: a header and claims with an empty signature, as RFC 7519 §6 writes an unsecured JWT. */
export function unsigned(claims: Record<string, unknown> = goodClaims(), kid?: string): string {
  return `${b64({ alg: 'none', typ: 'at+jwt', ...(kid === undefined ? {} : { kid }) })}.${b64(claims)}.`;
}

/** HS256 keyed with the bytes of the issuer's public key: what a key-confused verifier would accept. */
export function keyConfused(key: TestKey, claims: Record<string, unknown> = goodClaims()): string {
  const input = `${b64({ alg: 'HS256', kid: key.kid, typ: 'at+jwt' })}.${b64(claims)}`;
  const secret = key.publicKey.export({ format: 'pem', type: 'spki' });
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
}

/**
 * An ES256 or RS256 token over any header at all, signed with node:crypto: for headers (`crit`)
 * that jose refuses to sign, since a forger is not bound by what jose will sign.
 */
export function signRaw(
  key: TestKey,
  header: Record<string, unknown>,
  claims: Record<string, unknown>,
): string {
  const input = `${b64(header)}.${b64(claims)}`;
  const signature =
    key.alg === 'ES256'
      ? sign('sha256', Buffer.from(input), { key: key.privateKey, dsaEncoding: 'ieee-p1363' })
      : sign('sha256', Buffer.from(input), key.privateKey);
  return `${input}.${signature.toString('base64url')}`;
}

/**
 * An ES256 token whose payload is `payload` byte for byte: for JSON a claims object cannot hold
 * (`1e400`, a member named twice), which the issuer signs and the verifier must then read.
 */
export function signPayloadText(key: TestKey, payload: string): string {
  const input = `${b64({ alg: 'ES256', kid: key.kid, typ: 'at+jwt' })}.${b64(payload)}`;
  const signature = sign('sha256', Buffer.from(input), { key: key.privateKey, dsaEncoding: 'ieee-p1363' });
  return `${input}.${signature.toString('base64url')}`;
}

/**
 * An RSA public key with exponent 1 and an RS256 token "signed" under it without any private
 * key: with e = 1, RSA verification computes s^1 mod n, so the signature is simply the PKCS #1
 * v1.5 encoding of the digest (RFC 8017 §9.2), which anyone can write.
 */
export function exponentOneForgery(
  kid: string,
  claims: Record<string, unknown> = goodClaims(),
): { jwk: Record<string, string>; token: string } {
  const modulus = randomBytes(256);
  modulus[0] = 0xff;
  modulus[255] = (modulus[255] as number) | 1;
  const input = `${b64({ alg: 'RS256', kid, typ: 'at+jwt' })}.${b64(claims)}`;
  const digestInfo = Buffer.concat([
    Buffer.from('3031300d060960864801650304020105000420', 'hex'),
    createHash('sha256').update(input).digest(),
  ]);
  const encoded = Buffer.concat([
    Buffer.from([0x00, 0x01]),
    Buffer.alloc(256 - 3 - digestInfo.length, 0xff),
    Buffer.from([0x00]),
    digestInfo,
  ]);
  return {
    jwk: { kty: 'RSA', kid, use: 'sig', alg: 'RS256', n: modulus.toString('base64url'), e: 'AQ' },
    token: `${input}.${encoded.toString('base64url')}`,
  };
}
