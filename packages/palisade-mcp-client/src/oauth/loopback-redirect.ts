/**
 * The browser step for a command-line host: a one-shot HTTP listener on 127.0.0.1 (port 0 by
 * default, so the system picks a free one) at `/callback`, the redirect URI a native client
 * registers. `authorize` hands the authorization URL to the host's `open` (which starts the
 * user's browser) and resolves with the URL the browser comes back to. It answers only a GET of
 * its path, holds no more than Node's header bound of the request, and gives up after `timeoutMs`.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_LOOPBACK_WAIT_MS } from '../limits.js';
import { authError } from './http.js';
import type { Authorize } from './oauth-client.js';

export interface LoopbackRedirectOptions {
  /** Starts the user's browser on the authorization URL. */
  readonly open: (url: URL) => void | Promise<void>;
  /** Default 0: a free port. */
  readonly port?: number;
  /** Default 300,000 ms. */
  readonly timeoutMs?: number;
}

export interface LoopbackRedirect {
  readonly redirectUri: string;
  readonly authorize: Authorize;
  close(): Promise<void>;
}

const PAGE =
  '<!doctype html><title>Signed in</title><p>You can close this window and return to the application.</p>';

export async function loopbackRedirect(options: LoopbackRedirectOptions): Promise<LoopbackRedirect> {
  let waiting: ((url: URL) => void) | undefined;
  const server = createServer((req, res) => {
    const target = req.url ?? '';
    if (
      req.method !== 'GET' ||
      !(target === '/callback' || target.startsWith('/callback?')) ||
      waiting === undefined
    ) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(PAGE);
    const deliver = waiting;
    waiting = undefined;
    deliver(new URL(target, redirectUri));
  });
  server.listen(options.port ?? 0, '127.0.0.1');
  await once(server, 'listening');
  const redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
  const timeoutMs = options.timeoutMs ?? DEFAULT_LOOPBACK_WAIT_MS;
  return {
    redirectUri,
    authorize: async ({ url }) => {
      const arrived = new Promise<URL>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting = undefined;
          reject(authError('browser-timeout', `the browser did not come back within ${timeoutMs} ms`));
        }, timeoutMs);
        waiting = (landed) => {
          clearTimeout(timer);
          resolve(landed);
        };
      });
      await options.open(url);
      return arrived;
    },
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close').catch(() => {});
    },
  };
}
