/**
 * A real HTTP server on loopback standing in for an issuer's endpoints, whose answer per path a
 * test sets (a JWKS, a document that hangs, HTML, a redirect, 50 MiB) and which counts every
 * request it receives: the counts are what the key-source tests hold.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Route = (req: IncomingMessage, res: ServerResponse, body: string) => void;

export interface Peer {
  readonly origin: string;
  /** Requests received, by path. */
  readonly hits: Map<string, number>;
  /** Bodies of the requests received, by path, in order. */
  readonly bodies: Map<string, string[]>;
  /** Headers of the requests received, by path, in order. */
  readonly headers: Map<string, IncomingMessage['headers'][]>;
  route(path: string, answer: Route): void;
  close(): Promise<void>;
}

export async function startPeer(): Promise<Peer> {
  const routes = new Map<string, Route>();
  const hits = new Map<string, number>();
  const bodies = new Map<string, string[]>();
  const headers = new Map<string, IncomingMessage['headers'][]>();
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0] as string;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    headers.set(path, [...(headers.get(path) ?? []), req.headers]);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      bodies.set(path, [...(bodies.get(path) ?? []), body]);
      const route = routes.get(path);
      if (route === undefined) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      route(req, res, body);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hits,
    bodies,
    headers,
    route: (path, answer) => routes.set(path, answer),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(value: unknown, type = 'application/json'): Route {
  const text = JSON.stringify(value);
  return (_req, res) => {
    res.writeHead(200, { 'content-type': type, 'content-length': Buffer.byteLength(text) }).end(text);
  };
}
