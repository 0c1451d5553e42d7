/**
 * Censuses for what the package never holds: a session identity, key material, a signing or MAC
 * primitive. Each is a pure function of one file's name and text.
 */
import {
  type Census,
  importsOf,
  memberNames,
  names,
  parse,
  texts,
  usesOf,
  type Violation,
  walk,
} from './source.js';

/**
 * No session id is written: no text naming the `Mcp-Session-Id` header (any spelling of
 * session-id), and no identifier or key such as `sessionId` or `sessionIdGenerator`.
 */
export const noSessionId: Census = (file, source) => {
  const parsed = parse(file, source);
  const found: Violation[] = [];
  for (const { text, node } of texts(parsed)) {
    if (/session[-_ ]?id/i.test(text)) {
      found.push({ file, line: parsed.lineOf(node), what: `writes the text ${JSON.stringify(text)}` });
    }
  }
  for (const { name, node } of names(parsed)) {
    if (/session_?id/i.test(name)) found.push({ file, line: parsed.lineOf(node), what: `names ${name}` });
  }
  return found;
};

/** What `node:crypto` may be used for: hashing, and nothing else. */
export const HASHING = new Set(['createHash', 'getHashes', 'hash']);

/** Names that construct, load or generate keys, wherever they come from. */
const KEY_NAMES = new Set([
  'createPrivateKey',
  'createPublicKey',
  'createSecretKey',
  'generateKey',
  'generateKeySync',
  'generateKeyPair',
  'generateKeyPairSync',
  'KeyObject',
  'CryptoKey',
  'webcrypto',
  'subtle',
]);

/**
 * No key material and no crypto call other than hashing: `node:crypto` is used only for
 * `createHash` (and its lookups), WebCrypto (`crypto.subtle`, `webcrypto`, the global `crypto`)
 * is never reached, no key is constructed or generated, and no text looks like a PEM block.
 */
export const noKeyMaterial: Census = (file, source) => {
  const parsed = parse(file, source);
  const records = importsOf(parsed);
  const found: Violation[] = [];
  for (const use of usesOf(parsed, records, 'node:crypto')) {
    if (!HASHING.has(use.name)) found.push({ file, line: use.line, what: `uses node:crypto ${use.name}` });
  }
  const importedCrypto = records.some((record) => record.bindings.some((b) => b.local === 'crypto'));
  walk(parsed.program, (node) => {
    if (node.type !== 'MemberExpression') return;
    const { object, property } = memberNames(node);
    // Node 20 puts WebCrypto on the global `crypto`: any use of it is a key-capable API.
    if (object === 'crypto' && !importedCrypto) {
      found.push({
        file,
        line: parsed.lineOf(node),
        what: `uses the global crypto.${property ?? '[computed]'}`,
      });
    }
    if (object === 'globalThis' && property === 'crypto') {
      found.push({ file, line: parsed.lineOf(node), what: 'uses globalThis.crypto' });
    }
  });
  for (const { name, node } of names(parsed)) {
    if (KEY_NAMES.has(name)) found.push({ file, line: parsed.lineOf(node), what: `names ${name}` });
  }
  for (const { text, node } of texts(parsed)) {
    if (/-----BEGIN [A-Z0-9 ]+-----|PRIVATE KEY/.test(text)) {
      found.push({ file, line: parsed.lineOf(node), what: 'writes a PEM-looking text' });
    }
  }
  return found;
};

/** Node's signing and MAC calls, by the names `node:crypto` exports them under. */
const CRYPTO_SIGNING = new Set([
  'createHmac',
  'Hmac',
  'createSign',
  'Sign',
  'createVerify',
  'Verify',
  'sign',
  'verify',
  'hkdf',
  'hkdfSync',
  'subtle',
  'webcrypto',
]);

/** Names that are a signing or MAC primitive in any library; `sign`/`verify` alone are not (a host's signer has them). */
const SIGNING_NAMES = new Set([
  'createHmac',
  'Hmac',
  'createSign',
  'createVerify',
  'hkdf',
  'hkdfSync',
  'subtle',
]);

/** Packages whose purpose is signing, MACs or tokens. */
const SIGNING_PACKAGES = [
  /^jose(\/|$)/,
  /^jsonwebtoken(\/|$)/,
  /^jws(\/|$)/,
  /^jwa(\/|$)/,
  /^tweetnacl/,
  /^@noble\//,
  /^node-forge(\/|$)/,
  /^elliptic(\/|$)/,
  /^libsodium/,
  /^sodium-native(\/|$)/,
  /^@peculiar\//,
];

/**
 * No signing or MAC primitive: nothing from `node:crypto` that signs, verifies or keys a MAC, no
 * WebCrypto `subtle`, no such name from any other source, and no signing package. The signer
 * seam (palisade-mcp-connectome's `signer.ts`) calls the host's `sign`, which is the host's primitive.
 */
export const noSigningPrimitive: Census = (file, source) => {
  const parsed = parse(file, source);
  const records = importsOf(parsed);
  const found: Violation[] = [];
  for (const use of usesOf(parsed, records, 'node:crypto')) {
    if (CRYPTO_SIGNING.has(use.name))
      found.push({ file, line: use.line, what: `uses node:crypto ${use.name}` });
  }
  for (const record of records) {
    if (SIGNING_PACKAGES.some((pattern) => pattern.test(record.specifier))) {
      found.push({ file, line: record.line, what: `imports the signing package ${record.specifier}` });
    }
  }
  for (const { name, node } of names(parsed)) {
    if (SIGNING_NAMES.has(name)) found.push({ file, line: parsed.lineOf(node), what: `names ${name}` });
  }
  return found;
};
