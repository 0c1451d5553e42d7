/**
 * Censuses for what the package never holds: a session identity outside the opt-in session
 * module, key material, a signing or MAC primitive. Each is a pure function of one file's name
 * and text.
 */
import {
  builtinName,
  type Census,
  child,
  type ImportRecord,
  importsOf,
  memberNames,
  nameOf,
  names,
  type Parsed,
  parse,
  texts,
  usesOf,
  type Violation,
  walk,
} from './source.js';

/**
 * Where a session id may be named: the session module (`sessions/`: the contracts, the stores,
 * how an id is minted and checked) and the HTTP sessions that use it (`http/sessions/`), which a
 * handler builds only when the host passes the `sessions` option.
 */
export const SESSION_ID_HOMES: readonly string[] = ['sessions/', 'http/sessions/'];

/** The bounds on a session id, which live with every other bound in limits.ts. */
const SESSION_ID_BOUNDS = new Set(['SESSION_ID_BYTES', 'MAX_SESSION_ID_CHARS']);

/**
 * The refusal rules the session module answers by, which the rule type names with every other
 * (telemetry/refusal-rules.ts): names of refusals, never an id or its header.
 */
const SESSION_ID_RULES = new Set(['session-id-missing', 'session-id-malformed', 'session-id-repeated']);

/**
 * No session id is written outside the session homes: no text naming the `Mcp-Session-Id` header
 * (any spelling of session-id), and no identifier or key such as `sessionId` or
 * `sessionIdGenerator`, but the two named bounds in limits.ts.
 */
export const noSessionId: Census = (file, source) => {
  if (SESSION_ID_HOMES.some((home) => file.startsWith(home))) return [];
  const parsed = parse(file, source);
  const found: Violation[] = [];
  for (const { text, node } of texts(parsed)) {
    if (file === 'telemetry/refusal-rules.ts' && SESSION_ID_RULES.has(text)) continue;
    if (/session[-_ ]?id/i.test(text)) {
      found.push({ file, line: parsed.lineOf(node), what: `writes the text ${JSON.stringify(text)}` });
    }
  }
  for (const { name, node } of names(parsed)) {
    if (file === 'limits.ts' && SESSION_ID_BOUNDS.has(name)) continue;
    if (/session_?id/i.test(name)) found.push({ file, line: parsed.lineOf(node), what: `names ${name}` });
  }
  return found;
};

/** What `node:crypto` may be used for: hashing, and nothing else but minting identifiers (below). */
export const HASHING = new Set(['createHash', 'getHashes', 'hash']);

/**
 * The one difference between an identifier and a key, by name: random bytes that become an
 * identifier are minted in a function named here, and nowhere else. A session id must be
 * unguessable, so it comes from the CSPRNG; but it names a session, authorizes nothing by itself
 * (every request still passes `authorize`, and a session answers only the principal that opened
 * it) and never signs, seals or derives anything. Random bytes anywhere else are key material.
 */
export const IDENTIFIER_MINTERS: ReadonlyMap<string, string> = new Map([
  ['mintSessionId', 'sessions/session-id.ts: an HTTP session id (Mcp-Session-Id)'],
  ['mintTaskId', 'catalog/memory-task-store.ts: a task id of the built-in task store'],
]);

/** Lines where `randomBytes` (imported by name from node:crypto) is referred to outside a function declaration named in IDENTIFIER_MINTERS. */
function randomUsesOutsideMinters(parsed: Parsed, records: readonly ImportRecord[]): number[] {
  const locals = new Set<string>();
  for (const record of records) {
    if ((builtinName(record.specifier) ?? record.specifier) !== 'node:crypto') continue;
    for (const binding of record.bindings) if (binding.imported === 'randomBytes') locals.add(binding.local);
  }
  if (locals.size === 0) return [];
  const minters: Array<readonly [number, number]> = [];
  walk(parsed.program, (node) => {
    if (node.type !== 'FunctionDeclaration') return;
    const id = nameOf(child(node, 'id'));
    if (id !== null && IDENTIFIER_MINTERS.has(id)) minters.push([node.start, node.end]);
  });
  const outside: number[] = [];
  walk(parsed.program, (node, parent) => {
    if (node.type !== 'Identifier' || !locals.has(node['name'] as string)) return;
    if (parent?.type === 'ImportSpecifier') return;
    if (!minters.some(([start, end]) => node.start >= start && node.end <= end))
      outside.push(parsed.lineOf(node));
  });
  return outside;
}

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
  const minted = randomUsesOutsideMinters(parsed, records);
  // Admitted only imported by name (a namespace's `c.randomBytes` is a use on its own line).
  const namedAt = new Set(
    records.flatMap((record) =>
      (builtinName(record.specifier) ?? record.specifier) === 'node:crypto' &&
      record.bindings.some((binding) => binding.imported === 'randomBytes')
        ? [record.line]
        : [],
    ),
  );
  for (const use of usesOf(parsed, records, 'node:crypto')) {
    if (HASHING.has(use.name)) continue;
    if (use.name === 'randomBytes' && namedAt.has(use.line) && minted.length === 0) continue;
    found.push({ file, line: use.line, what: `uses node:crypto ${use.name}` });
  }
  for (const line of minted)
    found.push({ file, line, what: 'uses randomBytes outside an identifier minter' });
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
