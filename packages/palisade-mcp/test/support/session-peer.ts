/**
 * A client for HTTP sessions, written for tests over a real socket: `initialize`, POSTs carrying
 * the session's id, GET streams read event by event, DELETE. It speaks through `fetch` (undici),
 * so any endpoint works: the node handler, the fetch handler behind @hono/node-server, `serve()`.
 * Every call answers what came back (status, headers, body or SSE events) without judging it.
 */
import { once } from 'node:events';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFetchHandler } from '../../src/http/fetch/handler.js';
import { createHttpHandler, type HttpHandlerOptions } from '../../src/http/node/handler.js';
import type { Server } from '../../src/index.js';
import { listenFetch } from './fetch-peer.js';

export type Json = Record<string, unknown>;

export interface SseEvent {
  readonly id?: string;
  readonly retry?: number;
  readonly data: string;
  /** `data` parsed, when it is JSON. */
  readonly message?: Json;
}

export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  /** The body as text (JSON answers, refusals). */
  readonly text: string;
  /** The body as SSE events, when it was a stream. */
  readonly events: readonly SseEvent[];
  /** The JSON body, or the last JSON-RPC response among the events. */
  readonly json?: Json;
}

export const SESSION_OPTIONS: Partial<HttpHandlerOptions> = {
  authorize: () => ({ ok: true, auth: { user: 'alice' } }),
  allowedOrigins: 'any',
  allowedHosts: ['127.0.0.1', 'localhost'],
  onLog: () => {},
  onFault: () => {},
};

/** Handler options, where `sessions: undefined` turns sessions off (they are on by default here). */
export type EndpointOptions = Omit<Partial<HttpHandlerOptions>, 'sessions'> & {
  readonly sessions?: HttpHandlerOptions['sessions'] | undefined;
};

export interface Endpoint {
  readonly url: string;
  close(): Promise<void>;
}

/** The node handler with `options` (sessions on unless they say otherwise) on 127.0.0.1:0. */
export async function nodeEndpoint(server: Server, options: EndpointOptions = {}): Promise<Endpoint> {
  const handler = createHttpHandler(server, {
    ...SESSION_OPTIONS,
    sessions: {},
    ...options,
  } as HttpHandlerOptions);
  const http = createHttpServer(handler);
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      http.closeAllConnections();
      http.close();
      await once(http, 'close');
    },
  };
}

/** The fetch handler behind @hono/node-server, as a Hono app runs it. */
export async function fetchEndpoint(server: Server, options: EndpointOptions = {}): Promise<Endpoint> {
  const mounted = await listenFetch(
    createFetchHandler(server, { ...SESSION_OPTIONS, sessions: {}, ...options } as HttpHandlerOptions),
  );
  return { url: `http://127.0.0.1:${mounted.port}/mcp`, close: () => mounted.close() };
}

/** Splits SSE text into events (id, retry, data); comments and blank events are dropped. */
export function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of text.split('\n\n')) {
    if (block.trim() === '') continue;
    let id: string | undefined;
    let retry: number | undefined;
    const data: string[] = [];
    let fields = 0;
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const name = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      fields += 1;
      if (name === 'id') id = value;
      else if (name === 'retry') retry = Number(value);
      else if (name === 'data') data.push(value);
    }
    if (fields === 0) continue;
    const joined = data.join('\n');
    let message: Json | undefined;
    try {
      message = joined === '' ? undefined : (JSON.parse(joined) as Json);
    } catch {
      message = undefined;
    }
    events.push({
      ...(id === undefined ? {} : { id }),
      ...(retry === undefined ? {} : { retry }),
      data: joined,
      ...(message === undefined ? {} : { message }),
    });
  }
  return events;
}

async function read(response: Response): Promise<Answer> {
  const text = await response.text();
  const sse = (response.headers.get('content-type') ?? '').includes('text/event-stream');
  const events = sse ? parseSse(text) : [];
  let json: Json | undefined;
  if (sse)
    json = [...events]
      .reverse()
      .find((event) => event.message?.['id'] !== undefined && event.message['method'] === undefined)?.message;
  else if (text !== '') json = JSON.parse(text) as Json;
  return {
    status: response.status,
    headers: response.headers,
    text,
    events,
    ...(json === undefined ? {} : { json }),
  };
}

/** An open SSE response read one event at a time. */
export class EventReader {
  readonly response: Response;
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #decoder = new TextDecoder();
  #buffer = '';
  #queue: SseEvent[] = [];
  done = false;

  constructor(response: Response) {
    this.response = response;
    if (response.body === null) throw new Error('no body');
    this.#reader = response.body.getReader();
  }

  /** The next event, or undefined once the stream ended. Rejects after `ms`. */
  async next(ms = 5_000): Promise<SseEvent | undefined> {
    const deadline = Date.now() + ms;
    while (this.#queue.length === 0) {
      if (this.done) return undefined;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('no event in time');
      let timer: NodeJS.Timeout | undefined;
      const chunk = await Promise.race([
        this.#reader.read(),
        new Promise<'timeout'>((resolve) => {
          timer = setTimeout(() => resolve('timeout'), left);
        }),
      ]);
      clearTimeout(timer);
      if (chunk === 'timeout') throw new Error('no event in time');
      if (chunk.done) {
        this.done = true;
        this.#flush(true);
        continue;
      }
      this.#buffer += this.#decoder.decode(chunk.value, { stream: true });
      this.#flush(false);
    }
    return this.#queue.shift();
  }

  #flush(all: boolean): void {
    const end = this.#buffer.lastIndexOf('\n\n');
    if (end === -1 && !all) return;
    const complete = all ? this.#buffer : this.#buffer.slice(0, end + 2);
    this.#buffer = all ? '' : this.#buffer.slice(end + 2);
    this.#queue.push(...parseSse(complete));
  }

  /** Every event until the stream ends. */
  async rest(ms = 5_000): Promise<SseEvent[]> {
    const events: SseEvent[] = [];
    for (;;) {
      const event = await this.next(ms);
      if (event === undefined) return events;
      events.push(event);
    }
  }

  async close(): Promise<void> {
    await this.#reader.cancel().catch(() => {});
  }
}

export interface PostOptions {
  readonly headers?: Record<string, string>;
  /** Send this id instead of the session's, or none with null. */
  readonly sessionId?: string | null;
  readonly accept?: string;
}

export class SessionClient {
  readonly url: string;
  readonly revision: string;
  sessionId: string | undefined;
  #nextId = 1;

  constructor(url: string, revision = '2025-11-25') {
    this.url = url;
    this.revision = revision;
  }

  /** `initialize` then `notifications/initialized`; answers the initialize answer. */
  async open(capabilities: Json = {}, headers: Record<string, string> = {}): Promise<Answer> {
    const answer = await this.post(
      {
        jsonrpc: '2.0',
        id: this.#nextId++,
        method: 'initialize',
        params: {
          protocolVersion: this.revision,
          capabilities,
          clientInfo: { name: 'session-peer', version: '1' },
        },
      },
      { sessionId: null, headers },
    );
    const id = answer.headers.get('mcp-session-id');
    if (id !== null) this.sessionId = id;
    if (answer.status === 200 && id !== null) {
      const initialized = await this.post(
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { headers },
      );
      if (initialized.status !== 202) throw new Error(`initialized answered ${initialized.status}`);
    }
    return answer;
  }

  headers(options: PostOptions = {}): Record<string, string> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: options.accept ?? 'application/json, text/event-stream',
    };
    if (this.revision !== '2025-03-26') headers['mcp-protocol-version'] = this.revision;
    const id = options.sessionId === undefined ? this.sessionId : options.sessionId;
    if (id !== null && id !== undefined) headers['mcp-session-id'] = id;
    return { ...headers, ...options.headers };
  }

  async post(message: Json, options: PostOptions = {}): Promise<Answer> {
    const response = await fetch(this.url, {
      method: 'POST',
      headers: this.headers(options),
      body: JSON.stringify(message),
    });
    return read(response);
  }

  /** A POST whose answer is read as it arrives. */
  async postStream(message: Json, options: PostOptions = {}): Promise<EventReader | Answer> {
    const response = await fetch(this.url, {
      method: 'POST',
      headers: this.headers(options),
      body: JSON.stringify(message),
    });
    if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) return read(response);
    return new EventReader(response);
  }

  request(method: string, params?: Json, options: PostOptions = {}): Promise<Answer> {
    return this.post(this.message(method, params), options);
  }

  message(method: string, params?: Json, id: number | string = this.#nextId++): Json {
    return params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
  }

  notify(method: string, params?: Json, options: PostOptions = {}): Promise<Answer> {
    return this.post(
      params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params },
      options,
    );
  }

  /** A GET stream: an EventReader when it opened, else the refusal. */
  async stream(
    headers: Record<string, string> = {},
    options: PostOptions = {},
  ): Promise<EventReader | Answer> {
    const sent: Record<string, string> = { accept: 'text/event-stream', ...headers };
    const id = options.sessionId === undefined ? this.sessionId : options.sessionId;
    if (id !== null && id !== undefined) sent['mcp-session-id'] = id;
    if (this.revision !== '2025-03-26') sent['mcp-protocol-version'] = this.revision;
    const response = await fetch(this.url, { method: 'GET', headers: sent });
    if (response.status !== 200) return read(response);
    return new EventReader(response);
  }

  async delete(options: PostOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = {};
    const id = options.sessionId === undefined ? this.sessionId : options.sessionId;
    if (id !== null && id !== undefined) headers['mcp-session-id'] = id;
    return read(await fetch(this.url, { method: 'DELETE', headers: { ...headers, ...options.headers } }));
  }
}

export function isReader(value: EventReader | Answer): value is EventReader {
  return value instanceof EventReader;
}
