import { describe, expect, test } from 'vitest';
import { ConnectomeError } from '../src/errors.js';
import { encodeGraph, type GraphSigner, signGraph } from '../src/index.js';
import { workedExample } from './fixtures/graphs.js';

describe('the signer seam hands the canonical bytes to the host and signs nothing itself', () => {
  test('the signer receives exactly the canonical bytes and its signature is returned beside them', async () => {
    const seen: Uint8Array[] = [];
    const signer: GraphSigner = {
      sign(bytes) {
        seen.push(bytes);
        return new Uint8Array([1, 2, 3]);
      },
    };
    const signed = await signGraph(workedExample(), signer);
    expect(Buffer.from(seen[0]!).equals(Buffer.from(encodeGraph(workedExample())))).toBe(true);
    expect(Buffer.from(signed.bytes).equals(Buffer.from(seen[0]!))).toBe(true);
    expect([...signed.signature]).toEqual([1, 2, 3]);
    expect(signed.hash).toBe('a401cd47f0f0410d17248538eb8a3ef00018f6a31bf6fb6a7b9b0ba3377f570e');
  });

  test('scheme and key id are copied verbatim to the signer and the result', async () => {
    let context: unknown;
    const signer: GraphSigner = {
      sign: async (_bytes, ctx) => {
        context = ctx;
        return new Uint8Array(64);
      },
    };
    const signed = await signGraph(workedExample(), signer, {
      algorithm: 'sha384',
      scheme: 'ed25519',
      keyId: 'k1',
    });
    expect(context).toEqual({ algorithm: 'sha384', scheme: 'ed25519', keyId: 'k1' });
    expect(signed).toMatchObject({ algorithm: 'sha384', scheme: 'ed25519', keyId: 'k1' });
  });

  test('a signer that scribbles on its bytes cannot change the bytes returned', async () => {
    const signer: GraphSigner = {
      sign(bytes) {
        bytes.fill(0);
        return new Uint8Array(1);
      },
    };
    const signed = await signGraph(workedExample(), signer);
    expect(Buffer.from(signed.bytes).equals(Buffer.from(encodeGraph(workedExample())))).toBe(true);
  });

  test('a signer answering something other than bytes is refused by name', async () => {
    const signer = { sign: () => 'c2ln' } as unknown as GraphSigner;
    await expect(signGraph(workedExample(), signer)).rejects.toMatchObject({
      code: 'PALISADE_ERR_CONNECTOME_SIGNER',
    });
  });

  test('a value without a sign method is refused as an invalid option', async () => {
    await expect(signGraph(workedExample(), {} as GraphSigner)).rejects.toBeInstanceOf(ConnectomeError);
    await expect(signGraph(workedExample(), {} as GraphSigner)).rejects.toMatchObject({
      code: 'PALISADE_ERR_INVALID_OPTION',
    });
  });

  test('a signer’s own error reaches the host unchanged', async () => {
    const failure = new Error('hsm offline');
    const signer: GraphSigner = {
      sign: () => {
        throw failure;
      },
    };
    await expect(signGraph(workedExample(), signer)).rejects.toBe(failure);
  });

  test('an unknown sign option is refused by name', async () => {
    await expect(
      signGraph(workedExample(), { sign: () => new Uint8Array(1) }, { privateKey: 'x' } as never),
    ).rejects.toMatchObject({ code: 'PALISADE_ERR_UNKNOWN_OPTION' });
  });
});
