/**
 * The client against a Palisade server over real sockets: negotiation both ways, the 2026-07-28
 * envelope and headers, input requests answered and retried, progress, cancellation and
 * deadlines per call, pagination and the outputSchema check.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { type Client, ClientError, createClient, httpTransport } from '../src/index.js';
import { events, type Running, serveHttp, testServer } from './support/servers.js';

const open: { client?: Client; server?: Running }[] = [];
afterEach(async () => {
  for (const item of open.splice(0)) {
    await item.client?.close();
    await item.server?.close();
  }
});

async function connected(
  options: Partial<Parameters<typeof createClient>[0]> = {},
  server = testServer(),
): Promise<{ client: Client; running: Running }> {
  const running = await serveHttp(server);
  const client = createClient({ transport: httpTransport(running.url), ...options });
  open.push({ client, server: running });
  await client.connect();
  return { client, running };
}

describe('negotiation', () => {
  test('a 2026-07-28 server is reached through server/discover, with no handshake', async () => {
    const { client } = await connected();
    expect(client.server?.revision).toBe('2026-07-28');
    expect(client.server?.serverInfo?.name).toBe('client-test');
    expect(client.server?.supportedVersions).toContain('2025-11-25');
  });

  test('a server that serves no 2026-07-28 is reached through initialize on the revision it names', async () => {
    const { client } = await connected({}, testServer({ supportedVersions: ['2025-06-18'] }));
    expect(client.server?.revision).toBe('2025-06-18');
    const result = await client.callTool('echo', { text: 'old' });
    expect(result.content).toEqual([{ type: 'text', text: 'old' }]);
  });

  test('a client limited to handshake revisions offers the newest of them', async () => {
    const { client } = await connected({ revisions: ['2025-11-25', '2025-03-26'] });
    expect(client.server?.revision).toBe('2025-11-25');
  });

  test('a counter-offer the client does not accept fails by name', async () => {
    const running = await serveHttp(testServer({ supportedVersions: ['2025-03-26'] }));
    const client = createClient({ transport: httpTransport(running.url), revisions: ['2025-11-25'] });
    open.push({ client, server: running });
    await expect(client.connect()).rejects.toMatchObject({ code: 'PALISADE_CLIENT_ERR_NEGOTIATION' });
  });
});

describe('calls', () => {
  test('a tool with an x-mcp-header argument is called with its Mcp-Param header, which the server holds to the body', async () => {
    const { client } = await connected();
    await client.listAllTools();
    const result = await client.callTool('region_echo', { region: 'eu west ü' });
    expect(result.content).toEqual([{ type: 'text', text: 'eu west ü' }]);
  });

  test('an input request is answered by the host’s elicitation handler and the call retried with requestState', async () => {
    const asked: unknown[] = [];
    const { client } = await connected({
      onElicitation: (params) => {
        asked.push(params['message']);
        return { action: 'accept', content: { name: 'Ada' } };
      },
    });
    const result = await client.callTool('ask_name');
    expect(asked).toEqual(['Your name?']);
    expect(result.content).toEqual([{ type: 'text', text: 'hello Ada ({"round":1})' }]);
  });

  test('an input request with no handler for it fails the call by name', async () => {
    const { client } = await connected({
      onSampling: () => ({ role: 'assistant', model: 'm', content: { type: 'text', text: '' } }),
    });
    await expect(client.callTool('ask_name')).rejects.toMatchObject({ code: 'PALISADE_CLIENT_ERR_RPC' });
  });

  test('progress notifications reach the call that asked for them, in order', async () => {
    const { client } = await connected();
    const seen: number[] = [];
    await client.callTool('steps', { n: 3 }, { onProgress: (p) => seen.push(p.progress) });
    expect(seen).toEqual([1, 2, 3]);
  });

  test('a call’s signal cancels it: the call fails ABORTED and the server’s handler sees its signal', async () => {
    const { client } = await connected();
    const before = events.aborted;
    const started = events.started;
    const controller = new AbortController();
    const call = client.callTool('slow', {}, { signal: controller.signal });
    // Aborted once the handler runs: an abort before the request leaves never reaches it.
    await expect.poll(() => events.started).toBe(started + 1);
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: 'PALISADE_CLIENT_ERR_ABORTED' });
    await expect.poll(() => events.aborted).toBe(before + 1);
    expect((await client.callTool('echo', { text: 'after' })).content).toEqual([
      { type: 'text', text: 'after' },
    ]);
  });

  test('a call’s timeout ends it with PALISADE_CLIENT_ERR_TIMEOUT on 2025-11-25 too', async () => {
    const { client } = await connected({ revisions: ['2025-11-25'] });
    await expect(client.callTool('slow', {}, { timeoutMs: 100 })).rejects.toMatchObject({
      code: 'PALISADE_CLIENT_ERR_TIMEOUT',
    });
  });

  test('fifty calls in flight at once all succeed, with no listener-leak warning from Node', async () => {
    const { client } = await connected();
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning.name);
    };
    process.on('warning', onWarning);
    try {
      const texts = await Promise.all(
        Array.from({ length: 50 }, (_, i) => client.callTool('echo', { text: String(i) })),
      );
      expect(texts.map((result) => result.content[0]?.['text'])).toEqual(
        Array.from({ length: 50 }, (_, i) => String(i)),
      );
      // Node emits its warnings on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });

  test('listAllTools follows nextCursor across pages', async () => {
    const { client } = await connected({}, testServer({ pageSize: 3 }));
    const first = await client.listTools();
    expect(first.items).toHaveLength(3);
    expect(first.nextCursor).toBeTypeOf('string');
    expect((await client.listAllTools()).length).toBe(13);
  });

  test('structuredContent that satisfies the listed outputSchema is returned', async () => {
    const { client } = await connected();
    await client.listAllTools();
    expect((await client.callTool('weather')).structuredContent).toEqual({ celsius: 12 });
  });

  test('a server error is a ClientError carrying the JSON-RPC code', async () => {
    const { client } = await connected();
    const error = await client.callTool('no_such_tool').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientError);
    expect((error as ClientError).rpc?.code).toBe(-32602);
  });
});
