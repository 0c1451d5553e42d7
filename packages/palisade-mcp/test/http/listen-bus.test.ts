/**
 * Listen streams on a change bus (`notifications.bus`), over a real socket: a change published
 * by another server on the same bus (another process, in production) reaches the stream; when
 * the bus may have missed changes the stream ends with its result so the client lists again; a
 * bus that cannot send makes the announcement reject; a bus without its methods is refused at
 * construction by name.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { createHttpHandler } from '../../src/http/node/handler.js';
import {
  type BusListener,
  type ChangeBus,
  createServer,
  defineTool,
  MemoryChangeBus,
  PalisadeError,
  type Server,
} from '../../src/index.js';
import {
  ADMIT_ALL,
  type Json,
  type Mounted,
  modernRequest,
  mount,
  post,
  RawClient,
} from '../support/http-peer.js';

let mounted: Mounted | undefined;
const clients: RawClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.end();
  await mounted?.close();
  mounted = undefined;
});

/** A bus on the default one that can also say `lost`, as a shared bus does when its connection drops. */
class LossyBus implements ChangeBus {
  readonly #inner = new MemoryChangeBus();
  readonly #listeners = new Set<BusListener>();
  publish(change: Parameters<ChangeBus['publish']>[0]): void {
    this.#inner.publish(change);
  }
  subscribe(listener: BusListener): () => void {
    this.#listeners.add(listener);
    const undo = this.#inner.subscribe(listener);
    return () => {
      this.#listeners.delete(listener);
      undo();
    };
  }
  lose(): void {
    for (const listener of this.#listeners) listener({ lost: true });
  }
}

function make(bus: ChangeBus): Server {
  return createServer({
    name: 'bus-fixture',
    version: '1.0.0',
    tools: [defineTool({ name: 'noop', inputSchema: { type: 'object' }, handler: () => ({ content: [] }) })],
    notifications: { toolsListChanged: true, bus },
  });
}

async function listen(server: Server, id: number): Promise<RawClient> {
  mounted = await mount(createHttpHandler(server, ADMIT_ALL));
  const client = new RawClient(mounted.port);
  clients.push(client);
  const { body, headers } = modernRequest(0, 'subscriptions/listen', {
    notifications: { toolsListChanged: true },
  });
  client.send(post(body.replace('"id":0', `"id":${id}`), headers));
  await client.until((text) => text.includes('notifications/subscriptions/acknowledged'));
  return client;
}

function events(client: RawClient): Json[] {
  return [...client.text().matchAll(/^data: (.*)$/gm)].map((match) => JSON.parse(match[1] ?? '') as Json);
}

describe('listen streams on a change bus', () => {
  test("a change another server publishes on the shared bus reaches this server's listen stream", async () => {
    const bus = new MemoryChangeBus();
    const here = make(bus);
    const elsewhere = make(bus);
    const client = await listen(here, 3);
    await elsewhere.notifyListChanged('tools');
    await client.until((text) => text.includes('notifications/tools/list_changed'));
    expect(events(client).at(-1)).toMatchObject({
      method: 'notifications/tools/list_changed',
      params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 3 } },
    });
  });

  test('when the bus may have missed changes the listen stream ends with its result, complete', async () => {
    const bus = new LossyBus();
    const client = await listen(make(bus), 4);
    bus.lose();
    await client.until((text) => text.endsWith('\r\n0\r\n\r\n'));
    expect(events(client).at(-1)).toMatchObject({
      jsonrpc: '2.0',
      id: 4,
      result: { resultType: 'complete' },
    });
  });

  test('an announcement the bus could not send rejects, and a bad kind still throws at once', async () => {
    const failing: ChangeBus = {
      publish: () => Promise.reject(new PalisadeError('PALISADE_ERR_TRANSPORT', 'bus down')),
      subscribe: () => () => undefined,
    };
    const server = make(failing);
    await expect(server.notifyListChanged('tools')).rejects.toThrow('bus down');
    expect(() => server.notifyListChanged('prompts')).toThrow(PalisadeError);
  });

  test('a bus without subscribe is refused at construction, naming the option', () => {
    expect(() => make({ publish: () => undefined } as unknown as ChangeBus)).toThrow(
      'option "notifications.bus.subscribe" must be a function',
    );
  });
});
