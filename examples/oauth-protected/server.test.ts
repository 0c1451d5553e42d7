/**
 * The OAuth example, started as its README says and reached as its README says: without a token
 * (401 naming the metadata), the metadata, a client-credentials token from the local
 * authorization server, the call with it, and the official SDK client doing it all itself.
 */
import { type ChildProcess, execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startPrintingUrl } from '../support/mcp-url.ts';

const SERVER = fileURLToPath(new URL('./server.ts', import.meta.url));
const CLIENT = fileURLToPath(new URL('./client.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

let child: ChildProcess;
let url: URL;
let issuer: string;
let clientId: string;
let secret: string;

beforeAll(async () => {
  let printed: string;
  ({ child, url, printed } = await startPrintingUrl(['--import', 'tsx', SERVER], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', AS_PORT: '0' },
  }));
  // The server prints the authorization server and the demo client before the URL.
  issuer = /authorization server (\S+)/.exec(printed)?.[1] as string;
  [, clientId, secret] = /client credentials (\S+) (\S+)/.exec(printed) as unknown as [
    string,
    string,
    string,
  ];
}, 60_000);

afterAll(() => {
  child.kill();
});

describe('the oauth-protected example', () => {
  const call = (authorization?: string): Promise<Response> =>
    fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'mcp-protocol-version': '2025-11-25',
        ...(authorization === undefined ? {} : { authorization }),
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'whoami', arguments: {} },
      }),
    });

  test('a call without a token is answered 401 with a challenge naming the scope and the metadata', async () => {
    const response = await call();
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer scope="mcp:tools", resource_metadata="${url.origin}/.well-known/oauth-protected-resource/mcp"`,
    );
  });

  test('the metadata names the resource, the local authorization server and the scope', async () => {
    const response = await fetch(new URL('/.well-known/oauth-protected-resource/mcp', url));
    expect(await response.json()).toEqual({
      resource: url.href,
      authorization_servers: [issuer],
      scopes_supported: ['mcp:tools'],
      bearer_methods_supported: ['header'],
      resource_name: 'Palisade OAuth example',
    });
  });

  test('a client-credentials token for this resource is admitted, and whoami names the client and scope', async () => {
    const answer = await fetch(`${issuer}/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'client_credentials', resource: url.href, scope: 'mcp:tools' }),
    });
    const { access_token: token } = (await answer.json()) as { access_token: string };
    const response = await call(`Bearer ${token}`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { result: { content: [{ text: string }] } };
    expect(JSON.parse(body.result.content[0].text)).toMatchObject({
      clientId: 'mcp-demo',
      scopes: ['mcp:tools'],
    });
  });

  test('the official SDK client gets its own token from the 401 and calls whoami', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', CLIENT, url.href, clientId, secret, issuer],
      { cwd: ROOT },
    );
    const content = JSON.parse(stdout) as [{ text: string }];
    expect(JSON.parse(content[0].text)).toMatchObject({ clientId: 'mcp-demo', scopes: ['mcp:tools'] });
  });
});
