/**
 * Will-not-implement: a key, a signature, a MAC. The package hashes (the request-state binding
 * digest, a session's principal digest) and mints one kind of identifier (a session id, in
 * `mintSessionId`: random, but naming a session, never keying anything); sealing is a
 * host-supplied function. palisade-mcp-connectome holds
 * itself to the same rules over its own source (its test/census/censuses.test.ts), where signing
 * is the host's function too (`signer.ts`).
 */
import { describe, expect, test } from 'vitest';
import { noKeyMaterial, noSigningPrimitive } from './rules-secrets.js';
import { plant, runCensus } from './source.js';

describe('census: no key material and no crypto but hashing', () => {
  test('no source file uses node:crypto for anything but hashing and minting a session id, or holds key material', {
    tags: ['threat-model'],
  }, () => {
    expect(runCensus(noKeyMaterial)).toEqual([]);
  });

  test('hashing with createHash is not a violation', () => {
    const source = "import { createHash } from 'node:crypto';\nexport const h = createHash('sha256');\n";
    expect(plant(noKeyMaterial, 'connectome/planted.ts', source)).toEqual([]);
  });

  test('a planted randomBytes from node:crypto is named', () => {
    const planted =
      "import { createHash, randomBytes } from 'node:crypto';\nexport const key = randomBytes(32);\n";
    expect(plant(noKeyMaterial, 'connectome/planted.ts', planted)).toEqual([
      'connectome/planted.ts:1 uses node:crypto randomBytes',
      'connectome/planted.ts:2 uses randomBytes outside an identifier minter',
    ]);
  });

  test('randomBytes inside a function named mintSessionId is the one use admitted: an identifier, not a key', () => {
    const source =
      "import { randomBytes } from 'node:crypto';\nexport function mintSessionId() {\n  return randomBytes(24).toString('base64url');\n}\n";
    expect(plant(noKeyMaterial, 'sessions/planted.ts', source)).toEqual([]);
  });

  test('randomBytes in a function of another name is named, whatever the file', () => {
    const planted =
      "import { randomBytes } from 'node:crypto';\nexport function mintSigningKey() {\n  return randomBytes(32);\n}\n";
    expect(plant(noKeyMaterial, 'sessions/session-id.ts', planted)).toEqual([
      'sessions/session-id.ts:1 uses node:crypto randomBytes',
      'sessions/session-id.ts:3 uses randomBytes outside an identifier minter',
    ]);
  });

  test('randomBytes beside the minter, outside it, is named', () => {
    const planted =
      "import { randomBytes } from 'node:crypto';\nexport function mintSessionId() {\n  return randomBytes(24).toString('base64url');\n}\nexport const key = randomBytes(32);\n";
    expect(plant(noKeyMaterial, 'sessions/session-id.ts', planted)).toEqual([
      'sessions/session-id.ts:1 uses node:crypto randomBytes',
      'sessions/session-id.ts:5 uses randomBytes outside an identifier minter',
    ]);
  });

  test('randomBytes through a namespace import is named even inside mintSessionId', () => {
    const planted =
      "import * as c from 'node:crypto';\nexport function mintSessionId() {\n  return c.randomBytes(24).toString('base64url');\n}\n";
    expect(plant(noKeyMaterial, 'sessions/session-id.ts', planted)).toEqual([
      'sessions/session-id.ts:3 uses node:crypto randomBytes',
    ]);
  });

  test('a planted private key loaded through a namespace import is named', () => {
    const planted = "import * as c from 'node:crypto';\nexport const k = c.createPrivateKey(pem);\n";
    expect(plant(noKeyMaterial, 'http/planted.ts', planted)).toEqual([
      'http/planted.ts:2 uses node:crypto createPrivateKey',
      'http/planted.ts:2 names createPrivateKey',
    ]);
  });

  test('a planted use of the global WebCrypto is named', () => {
    const planted = "export const key = await crypto.subtle.generateKey({ name: 'HMAC' }, false, []);\n";
    expect(plant(noKeyMaterial, 'connectome/planted.ts', planted)).toEqual([
      'connectome/planted.ts:1 uses the global crypto.subtle',
      'connectome/planted.ts:1 names subtle',
      'connectome/planted.ts:1 names generateKey',
    ]);
  });

  test('a planted PEM block is named', () => {
    const planted = 'export const key = `-----BEGIN PRIVATE KEY-----\\nMC4CAQAwBQYDK2VwBCIEIA==\\n`;\n';
    expect(plant(noKeyMaterial, 'http/planted.ts', planted)).toEqual([
      'http/planted.ts:1 writes a PEM-looking text',
    ]);
  });
});

describe('census: no signing or MAC primitive', () => {
  test('no source file uses a signing, verifying or MAC primitive', () => {
    expect(runCensus(noSigningPrimitive)).toEqual([]);
  });

  test("calling a host-supplied signer's sign is not a violation", () => {
    const source = 'export const sign = (signer, bytes) => signer.sign(bytes, {});\n';
    expect(plant(noSigningPrimitive, 'connectome/planted.ts', source)).toEqual([]);
  });

  test('a planted createHmac through a namespace import of node:crypto is named', () => {
    const planted = "import * as c from 'node:crypto';\nexport const mac = c.createHmac('sha256', secret);\n";
    expect(plant(noSigningPrimitive, 'connectome/planted.ts', planted)).toEqual([
      'connectome/planted.ts:2 uses node:crypto createHmac',
      'connectome/planted.ts:2 names createHmac',
    ]);
  });

  test('a planted sign imported from node:crypto is named', () => {
    const planted = "import { sign } from 'node:crypto';\nexport const s = sign(null, bytes, key);\n";
    expect(plant(noSigningPrimitive, 'connectome/planted.ts', planted)).toEqual([
      'connectome/planted.ts:1 uses node:crypto sign',
    ]);
  });

  test('a planted signing package import is named', () => {
    const planted = "import { SignJWT } from 'jose';\nexport { SignJWT };\n";
    expect(plant(noSigningPrimitive, 'http/planted.ts', planted)).toEqual([
      'http/planted.ts:1 imports the signing package jose',
    ]);
  });
});
