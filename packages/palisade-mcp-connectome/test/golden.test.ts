import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { canonicalDiff, canonicalGraph, diffGraphs, encodeGraph, encodeSidecar } from '../src/index.js';
import {
  DIFF_WINDOW,
  diffDeclared,
  diffObserved,
  fixture,
  fixtureText,
  richGolden,
  workedExample,
} from './fixtures/graphs.js';

describe('canonical bytes are byte-identical to the original schema-3 goldens', () => {
  test('the fixture files still hash to the values the original publishes', () => {
    const sha = (name: string, algorithm: string) =>
      createHash(algorithm).update(fixture(name)).digest('hex');
    expect(sha('worked-example.jcs', 'sha256')).toBe(
      'a401cd47f0f0410d17248538eb8a3ef00018f6a31bf6fb6a7b9b0ba3377f570e',
    );
    expect(sha('diff-worked-example.jcs', 'sha256')).toBe(
      'a8a4206fb65febc83ed099be8b7408b6938795efc8a92f7cac1f53781c4312e1',
    );
    expect(sha('golden.jcs', 'sha256')).toBe(fixtureText('golden.sha256'));
    expect(sha('golden.sha384.jcs', 'sha384')).toBe(fixtureText('golden.sha384'));
  });

  test('the worked example encodes to its golden bytes and SHA-256', () => {
    const { bytes, hash } = canonicalGraph(workedExample());
    expect(Buffer.from(bytes).equals(fixture('worked-example.jcs'))).toBe(true);
    expect(hash).toBe('a401cd47f0f0410d17248538eb8a3ef00018f6a31bf6fb6a7b9b0ba3377f570e');
  });

  test('the richer golden encodes to its golden bytes and SHA-256', () => {
    const { bytes, hash } = canonicalGraph(richGolden());
    expect(Buffer.from(bytes).equals(fixture('golden.jcs'))).toBe(true);
    expect(hash).toBe('e442feaaccd752ddfe3a907a88bcfb19c1d31f4be3fc20a3125ba7b85584caf7');
  });

  test('the richer golden under SHA-384 differs only in the algorithm member and hashes to its twin', () => {
    const { bytes, hash, algorithm } = canonicalGraph(richGolden(), { algorithm: 'sha384' });
    expect(algorithm).toBe('sha384');
    expect(Buffer.from(bytes).equals(fixture('golden.sha384.jcs'))).toBe(true);
    expect(hash).toBe(fixtureText('golden.sha384'));
  });

  test('SHA-512 is named in the bytes and hashed over them', () => {
    const { bytes, hash } = canonicalGraph(workedExample(), { algorithm: 'sha512' });
    expect(Buffer.from(bytes).toString()).toContain('"algorithm":"sha512"');
    expect(hash).toBe(createHash('sha512').update(bytes).digest('hex'));
  });

  test('decomposed names are written in NFC and give the golden bytes', () => {
    const decomposed = richGolden('e\u0301cho', 'cafe\u0301');
    expect(Buffer.from(encodeGraph(decomposed)).equals(fixture('golden.jcs'))).toBe(true);
  });

  test('the weights of the richer golden are written to the sidecar, byte for byte', () => {
    expect(Buffer.from(encodeSidecar(richGolden())).equals(fixture('golden.sidecar.jcs'))).toBe(true);
  });

  test('weights never enter the hashed bytes', () => {
    expect(Buffer.from(encodeGraph(richGolden())).toString()).not.toContain('weight');
  });

  test('the diff worked example encodes to its golden 800 bytes and SHA-256', () => {
    const diff = diffGraphs(diffDeclared(), diffObserved(), { window: DIFF_WINDOW });
    const { bytes, hash } = canonicalDiff(diff);
    expect(bytes.length).toBe(800);
    expect(Buffer.from(bytes).equals(fixture('diff-worked-example.jcs'))).toBe(true);
    expect(hash).toBe('a8a4206fb65febc83ed099be8b7408b6938795efc8a92f7cac1f53781c4312e1');
  });
});
