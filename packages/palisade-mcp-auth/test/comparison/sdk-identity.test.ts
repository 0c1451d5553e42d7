/**
 * What each side verifies by default, measured: the same tokens sent to Palisade behind
 * `bearer()` and to the official SDK v2's `requireBearerAuth` (its fetch gate), whose verifier is
 * the one its documentation asks a host to write, here reading the token's claims into
 * `AuthInfo` (subject, scopes, `exp`, `aud` as the resource) without judging them. Neither side
 * is configured beyond the issuer, the resource and one required scope. The rows of docs/auth.md's
 * identity table are checked against what each answered, and the README must name exactly the
 * tokens only the SDK admits.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { requireBearerAuth } from '@modelcontextprotocol/server';
import { beforeAll, describe, expect, test } from 'vitest';
import { bearer } from '../../src/index.js';
import { fetchHandlerOf, whoami } from '../support/mcp.js';
import { goodClaims, ISSUER, jwksOf, mint, now, RESOURCE, testKey, unsigned } from '../support/tokens.js';

const README = readFileSync(fileURLToPath(new URL('../../../../README.md', import.meta.url)), 'utf8');
const PAGE = readFileSync(fileURLToPath(new URL('../../../../docs/auth.md', import.meta.url)), 'utf8');

const key = testKey('ES256');

interface Row {
  readonly name: string;
  readonly token: () => Promise<string> | string;
}

const ROWS: readonly Row[] = [
  { name: 'a good token (control)', token: () => mint(key) },
  { name: 'signed with `alg: none`', token: () => unsigned(goodClaims(), key.kid) },
  {
    name: 'minted for another resource (`aud`)',
    token: () => mint(key, goodClaims({ aud: 'https://other.example.com/mcp' })),
  },
  {
    name: 'minted by another issuer (`iss`)',
    token: () => mint(key, goodClaims({ iss: 'https://evil.example.com' })),
  },
  { name: 'expired an hour ago', token: () => mint(key, goodClaims({ exp: now() - 3600 })) },
  { name: 'lacking the required scope', token: () => mint(key, goodClaims({ scope: 'other' })) },
];

const palisade = fetchHandlerOf(
  bearer({ resource: RESOURCE, issuer: ISSUER, jwks: jwksOf(key), scopes: { required: ['mcp:tools'] } }),
);

/** The verifier the SDK's documentation has a host write: the token's claims, read into AuthInfo. */
const claimsReader = {
  verifyAccessToken: async (token: string) => {
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<
      string,
      unknown
    >;
    return {
      token,
      clientId: String(claims['client_id']),
      scopes: String(claims['scope'] ?? '').split(' '),
      expiresAt: claims['exp'] as number,
      resource: new URL(String(claims['aud'])),
    };
  },
};
const sdk = requireBearerAuth({ verifier: claimsReader, requiredScopes: ['mcp:tools'] });

function cell(status: number, challenge: string | null): string {
  if (status === 200) return 'admitted';
  const error = /error="([a-z_]+)"/.exec(challenge ?? '')?.[1];
  return `refused: ${status}${error === undefined ? '' : ` \`${error}\``}`;
}

const measured = new Map<string, string>();

beforeAll(async () => {
  for (const row of ROWS) {
    const token = await row.token();
    const ours = await palisade.handle(whoami('http://127.0.0.1/mcp', token));
    const gated = await sdk(
      new Request('http://127.0.0.1/mcp', { headers: { authorization: `Bearer ${token}` } }),
    );
    const theirs =
      gated instanceof Response ? cell(gated.status, gated.headers.get('www-authenticate')) : 'admitted';
    measured.set(
      row.name,
      `| ${row.name} | ${cell(ours.status, ours.headers.get('www-authenticate'))} | ${theirs} |`,
    );
  }
});

describe('identity, what each side verifies by default', () => {
  test.each(ROWS)('the docs/auth.md row for a token "$name" is what each side answered', (row) => {
    const line = measured.get(row.name) as string;
    // SIDE_BY_SIDE_PRINT=1 prints the measured rows, to paste when a side changes.
    if (process.env['SIDE_BY_SIDE_PRINT'] === '1') console.log(line);
    expect(PAGE).toContain(line);
  });

  test('the README names every token only the SDK admits, and no other', () => {
    const start = README.indexOf('\n## Palisade and the official SDK');
    expect(start).toBeGreaterThan(-1);
    const end = README.indexOf('\n## ', start + 1);
    const section = README.slice(start, end === -1 ? undefined : end).replace(/\s+/g, ' ');
    const onlySdkAdmits = ROWS.filter((row) =>
      /^\| .* \| refused: .* \| admitted \|$/.test(measured.get(row.name) ?? ''),
    );
    expect(onlySdkAdmits.length).toBeGreaterThan(0);
    expect(ROWS.filter((row) => section.includes(row.name))).toEqual(onlySdkAdmits);
  });
});
