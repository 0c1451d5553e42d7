/**
 * An `allowedHosts` entry is a host as a client's Host header names it, without the port. Any other
 * spelling could never match a request, so every caller would be answered 421 by a configuration
 * that looks as if it works: such an entry is refused when the handler (or `hostAllowList()`) is
 * built, by name and index, the way `allowedOrigins` refuses an origin no browser would send.
 */
import { describe, expect, test } from 'vitest';
import { createHttpHandler, type HttpHandlerOptions } from '../../src/http/node/handler.js';
import { hostAllowList } from '../../src/http/node/host-allow-list.js';
import { closeAfterEach } from '../support/close-after-each.js';
import { basicServer, exchange, LIST, mount, post } from '../support/http-peer.js';

const closeLater = closeAfterEach();

const INVALID = 'PALISADE_ERR_INVALID_OPTION';
const SHAPE = 'must be a host as Host names it, without scheme or port (such as localhost, 127.0.0.1 or ::1)';

function built(allowedHosts: readonly string[], make: 'handler' | 'middleware'): unknown {
  try {
    if (make === 'handler') {
      createHttpHandler(basicServer(), {
        authorize: () => ({ ok: true }),
        allowedOrigins: [],
        allowedHosts,
      } satisfies HttpHandlerOptions);
    } else {
      hostAllowList({ allowedHosts });
    }
    return 'built';
  } catch (error) {
    return { code: (error as { code?: unknown }).code, message: (error as Error).message };
  }
}

describe.each(['handler', 'middleware'] as const)('an allowedHosts entry given to the %s', (make) => {
  test.each([
    ['with a port', '127.0.0.1:3000', ''],
    ['with a scheme', 'http://127.0.0.1', ''],
    ['with an opening bracket only', '[127.0.0.1', ''],
    ['with a closing bracket only', 'localhost]', ''],
    ['with a path', 'example.com/mcp', ': example.com'],
    ['with user information', 'user@example.com', ': example.com'],
    ['with a space', ' localhost', ''],
    ['of an IDN in Unicode', 'bücher.example', ': xn--bcher-kva.example'],
    ['of an IPv6 address written long', '[0:0:0:0:0:0:0:1]', ': ::1'],
  ])('%s (%s) is refused by name and index, with the spelling that would match', (_what, entry, written) => {
    expect(built(['localhost', entry], make)).toEqual({
      code: INVALID,
      message: `option "allowedHosts[1]" ${SHAPE}${written}`,
    });
  });

  test.each([
    'localhost',
    'LOCALHOST',
    'localhost.',
    '127.0.0.1',
    '::1',
    '[::1]',
    'xn--bcher-kva.example',
    'mcp.example.com',
  ])('%s is accepted', (entry) => {
    expect(built([entry], make)).toBe('built');
  });
});

test('entries written in capitals or in brackets match the Host a client sends', async () => {
  const mounted = await closeLater(
    mount(
      createHttpHandler(basicServer(), {
        authorize: () => ({ ok: true }),
        allowedOrigins: [],
        allowedHosts: ['LOCALHOST', '[::1]'],
      }),
    ),
  );
  const port = mounted.port;
  for (const host of [`localhost:${port}`, `[::1]:${port}`]) {
    const reply = await exchange(port, post(LIST.body, { ...LIST.headers, Host: host }));
    expect([host, reply.status]).toEqual([host, 200]);
    reply.client.end();
  }
  const other = await exchange(port, post(LIST.body, { ...LIST.headers, Host: `127.0.0.1:${port}` }));
  expect(other.status).toBe(421);
  other.client.end();
});
