/**
 * `requestState` is input from an attacker (spec §9). Palisade binds the host's state to the
 * principal, the method, a digest of the params, an expiry and the round before the host's sealer
 * protects it; every token it will not act on is refused with one and the same -32602, so a
 * client probing tokens cannot learn which check failed.
 */
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createServer, PalisadeError, type RequestStateSealer } from '../../src/index.js';
import { hmacSealer, mrtrDefinition } from '../fixtures/mrtr.js';
import { ALL_CAPABILITIES, type MrtrPeer, mountMrtr } from '../support/mrtr-http.js';

type Json = Record<string, unknown>;

const REFUSED = {
  code: -32602,
  message: 'Invalid params: requestState was not issued by this server for this request',
};

const CAPS = { capabilities: ALL_CAPABILITIES };
const ANSWER = { user_name: { action: 'accept', content: { name: 'Ada' } } };

let sealer: RequestStateSealer;
let peer: MrtrPeer;
beforeAll(async () => {
  sealer = hmacSealer();
  peer = await mountMrtr(mrtrDefinition(sealer));
});
afterAll(() => peer.close());

async function issued(params: Json = { name: 'greet' }, user?: string): Promise<string> {
  const reply = await peer.call('tools/call', params, { ...CAPS, ...(user === undefined ? {} : { user }) });
  const state = (reply.body['result'] as Json)['requestState'];
  expect(typeof state).toBe('string');
  return state as string;
}

async function retry(requestState: unknown, params: Json = { name: 'greet' }, user?: string) {
  return peer.call(
    'tools/call',
    { ...params, inputResponses: ANSWER, requestState },
    {
      ...CAPS,
      ...(user === undefined ? {} : { user }),
    },
  );
}

/**
 * What Palisade seals for `tools/call greet` by an anonymous caller, written out by hand: the
 * canonical JSON (sorted keys) of the principal, method, params digest, expiry, round and state.
 */
async function forge(changes: Json): Promise<string> {
  const envelope: Json = {
    digest: createHash('sha256').update('{"name":"greet"}').digest('hex'),
    expires: Date.now() + 60_000,
    method: 'tools/call',
    principal: '{"user":"anonymous"}',
    round: 1,
    state: { step: 1 },
    v: 1,
    ...changes,
  };
  const sorted = Object.fromEntries(Object.entries(envelope).sort(([a], [b]) => (a < b ? -1 : 1)));
  return sealer.seal(new TextEncoder().encode(JSON.stringify(sorted)));
}

function expectRefused(reply: { status: number; body: Json }): void {
  expect(reply.status).toBe(200);
  expect(reply.body['error']).toEqual(REFUSED);
  expect(reply.body).not.toHaveProperty('result');
}

describe('a requestState Palisade will not act on', () => {
  test('an untouched token is accepted (the baseline every refusal below differs from)', async () => {
    const reply = await retry(await issued());
    expect((reply.body['result'] as Json)['resultType']).toBe('complete');
  });

  test('a tampered token is refused, neither a result nor a new request for input', {
    tags: ['threat-model'],
  }, async () => {
    expectRefused(await retry(`${await issued()}-TAMPERED`));
  });

  test('a truncated token is refused', { tags: ['threat-model'] }, async () => {
    const token = await issued();
    expectRefused(await retry(token.slice(0, token.length - 4)));
  });

  test("another principal's token is refused", { tags: ['threat-model'] }, async () => {
    const token = await issued({ name: 'greet' }, 'alice');
    expect(((await retry(token, { name: 'greet' }, 'alice')).body['result'] as Json)['resultType']).toBe(
      'complete',
    );
    expectRefused(await retry(token, { name: 'greet' }, 'mallory'));
  });

  test('a token issued for another method with the same params is refused', {
    tags: ['threat-model'],
  }, async () => {
    const reply = await peer.call('prompts/get', { name: 'context_prompt' }, CAPS);
    const token = (reply.body['result'] as Json)['requestState'];
    expectRefused(await retry(token, { name: 'context_prompt' }));
  });

  test('a token issued for other params is refused', { tags: ['threat-model'] }, async () => {
    const token = await issued({ name: 'greet', arguments: { who: 'a' } });
    expectRefused(await retry(token, { name: 'greet', arguments: { who: 'b' } }));
  });

  test('a token past its expiry is refused', { tags: ['threat-model'] }, async () => {
    const short = await mountMrtr(mrtrDefinition(sealer, 1));
    try {
      const first = await short.call('tools/call', { name: 'greet' }, CAPS);
      await sleep(20);
      const reply = await short.call(
        'tools/call',
        {
          name: 'greet',
          inputResponses: ANSWER,
          requestState: (first.body['result'] as Json)['requestState'],
        },
        CAPS,
      );
      expectRefused(reply);
    } finally {
      await short.close();
    }
  });

  test('a token longer than 16,384 bytes is refused before the sealer sees it', {
    tags: ['threat-model'],
  }, async () => {
    let opened = 0;
    const counting: RequestStateSealer = {
      seal: sealer.seal,
      open: (token) => {
        opened++;
        return sealer.open(token);
      },
    };
    const guarded = await mountMrtr(mrtrDefinition(counting));
    try {
      expectRefused(
        await guarded.call(
          'tools/call',
          { name: 'greet', inputResponses: ANSWER, requestState: 'a'.repeat(16_385) },
          CAPS,
        ),
      );
      expect(opened).toBe(0);
      expectRefused(
        await guarded.call(
          'tools/call',
          { name: 'greet', inputResponses: ANSWER, requestState: 'a'.repeat(16_384) },
          CAPS,
        ),
      );
      expect(opened).toBe(1);
    } finally {
      await guarded.close();
    }
  });

  test('a token is honoured for 8 rounds and refused on the 9th', { tags: ['threat-model'] }, async () => {
    let token = await issued({ name: 'forever' });
    for (let round = 1; round <= 8; round++) {
      const reply = await retry(token, { name: 'forever' });
      const result = reply.body['result'] as Json;
      expect(result['resultType']).toBe('input_required');
      expect((result['inputRequests'] as Json)['again']).toMatchObject({
        params: { message: `Round ${round + 1}?` },
      });
      token = result['requestState'] as string;
    }
    expectRefused(await retry(token, { name: 'forever' }));
  });

  test('an envelope built by hand with the right key and bindings is accepted (the baseline for the two below)', async () => {
    expect(((await retry(await forge({})))['body']['result'] as Json)['resultType']).toBe('complete');
  });

  test('an envelope with a member beyond the ones Palisade writes is refused', {
    tags: ['threat-model'],
  }, async () => {
    expectRefused(await retry(await forge({ admin: true })));
  });

  test('an envelope of another version is refused', { tags: ['threat-model'] }, async () => {
    expectRefused(await retry(await forge({ v: 2 })));
  });

  test('bytes the sealer vouches for that are not the envelope are refused', async () => {
    const forged = await sealer.seal(new TextEncoder().encode('{"v":1,"state":{"admin":true}}'));
    expectRefused(await retry(forged));
  });

  test('a token that is not a string is refused', async () => {
    expectRefused(await retry(12345));
  });

  test('a sealer whose open throws is answered like one that returns undefined', {
    tags: ['threat-model'],
  }, async () => {
    const throwing = await mountMrtr(
      mrtrDefinition({
        seal: sealer.seal,
        open: () => {
          throw new Error('bad token');
        },
      }),
    );
    try {
      expectRefused(
        await throwing.call(
          'tools/call',
          { name: 'greet', inputResponses: ANSWER, requestState: 'x.y' },
          CAPS,
        ),
      );
      expect(throwing.faults).toEqual([]);
    } finally {
      await throwing.close();
    }
  });

  test('a sealer returning a token over 16,384 bytes is a host fault, and nothing is issued', {
    tags: ['threat-model'],
  }, async () => {
    const bloated = await mountMrtr(
      mrtrDefinition({ seal: () => 'b'.repeat(16_385), open: () => undefined }),
    );
    try {
      const reply = await bloated.call('tools/call', { name: 'greet' }, CAPS);
      expect(reply.body['error']).toEqual({ code: -32603, message: 'Internal error' });
      expect(bloated.faults).toEqual(['requestState.sealer.seal returned more than 16384 bytes']);
    } finally {
      await bloated.close();
    }
  });
});

describe('the principal a token is bound to', () => {
  test("a principal hook decides who a request acts for: the hook's name, not the raw auth, is compared", async () => {
    const folded = await mountMrtr({
      ...mrtrDefinition(),
      requestState: { sealer, principal: (auth) => String((auth as { user: string }).user).toLowerCase() },
    });
    try {
      const first = await folded.call('tools/call', { name: 'greet' }, { ...CAPS, user: 'Alice' });
      const token = (first.body['result'] as Json)['requestState'];
      const again = await folded.call(
        'tools/call',
        { name: 'greet', inputResponses: ANSWER, requestState: token },
        { ...CAPS, user: 'ALICE' },
      );
      expect((again.body['result'] as Json)['resultType']).toBe('complete');
      expectRefused(
        await folded.call(
          'tools/call',
          { name: 'greet', inputResponses: ANSWER, requestState: token },
          { ...CAPS, user: 'bob' },
        ),
      );
    } finally {
      await folded.close();
    }
  });

  test('a principal hook that throws is a host fault, whatever the token', async () => {
    const broken = await mountMrtr({
      ...mrtrDefinition(),
      requestState: {
        sealer,
        principal: () => {
          throw new Error('no principal');
        },
      },
    });
    try {
      const reply = await broken.call('tools/call', { name: 'greet' }, CAPS);
      expect(reply.body['error']).toEqual({ code: -32603, message: 'Internal error' });
      expect(broken.faults).toEqual(['requestState.principal threw']);
    } finally {
      await broken.close();
    }
  });
});

describe('the requestState option at construction', () => {
  const base = { name: 's', version: '1' };
  const good = hmacSealer();

  test('an unknown key is refused by name', { tags: ['threat-model'] }, () => {
    expect(() => createServer({ ...base, requestState: { sealer: good, ttl: 5 } as never })).toThrow(
      new PalisadeError(
        'PALISADE_ERR_UNKNOWN_OPTION',
        'unknown option "requestState.ttl"; known options: sealer, ttlMs, principal',
      ),
    );
  });

  test.each([0, 3_600_001, 1.5])('ttlMs %s is refused', { tags: ['threat-model'] }, (ttlMs) => {
    expect(() => createServer({ ...base, requestState: { sealer: good, ttlMs } })).toThrow(
      'option "requestState.ttlMs" must be an integer from 1 to 3600000',
    );
  });

  test('a sealer without open is refused by name', () => {
    expect(() => createServer({ ...base, requestState: { sealer: { seal: good.seal } as never } })).toThrow(
      'option "requestState.sealer.open" must be a function',
    );
  });

  test('a missing sealer is refused', () => {
    expect(() => createServer({ ...base, requestState: {} as never })).toThrow(
      'option "requestState.sealer" must be an object with seal and open functions',
    );
  });

  test('a principal that is not a function is refused', () => {
    expect(() => createServer({ ...base, requestState: { sealer: good, principal: 'me' as never } })).toThrow(
      'option "requestState.principal" must be a function',
    );
  });
});
