#!/usr/bin/env node
/**
 * `npm start` runs this: the demo catalog served over stateless Streamable HTTP at
 * `http://127.0.0.1:3000/mcp` (HTTP/1.1 and HTTP/2 by prior knowledge on one port), or over stdio
 * with `--stdio`. Diagnostics go to stderr; in stdio mode stdout carries protocol messages only.
 */
import { parseArgs } from 'node:util';
import { startDemo } from './start.js';

const USAGE = `usage: palisade-demo [--port N] [--allowed-origin ORIGIN]... [--sessions] [--stdio]

Serves the demo catalog, with its own connectome (connectome://declared, observed, diff).
  (default)                 stateless Streamable HTTP on http://127.0.0.1:3000/mcp
  --port N                  the port to bind on 127.0.0.1 (0 picks a free one; default 3000)
  --allowed-origin ORIGIN   a browser origin allowed to call (repeatable; default: none, so only
                            requests without an Origin header, from non-browser clients, are served)
  --sessions                keep sessions for 2025-11-25 and older clients: a GET stream for list
                            changes, requests to the client, cancellation (docs/sessions.md)
  --stdio                   serve over stdin/stdout (newline-delimited JSON-RPC) instead
  -h, --help                this text
`;

function usageError(message: string): never {
  process.stderr.write(`palisade-demo: ${message}\n\n${USAGE}`);
  process.exit(2);
}

function parse(): { port: number; origins: string[]; stdio: boolean; sessions: boolean } {
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions();
  } catch (error) {
    usageError(error instanceof Error ? error.message : String(error));
  }
  const { values } = parsed;
  if (values.help) {
    process.stdout.write(USAGE);
    process.exit(0);
  }
  const port = Number(values.port);
  if (!/^[0-9]{1,5}$/.test(values.port) || port > 65_535)
    usageError('--port must be an integer from 0 to 65535');
  if (values.sessions && values.stdio) usageError('--sessions applies to HTTP only');
  return { port, origins: values['allowed-origin'], stdio: values.stdio, sessions: values.sessions };
}

function parseOptions() {
  return parseArgs({
    options: {
      port: { type: 'string', default: '3000' },
      'allowed-origin': { type: 'string', multiple: true, default: [] },
      stdio: { type: 'boolean', default: false },
      sessions: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
}

const options = parse();

if (options.stdio) {
  process.stderr.write(
    'palisade demo: serving over stdio. Connect an MCP client with: node packages/demo/dist/main.js --stdio\n',
  );
  await startDemo({ stdio: true });
} else {
  try {
    // startDemo also starts the collector: connectome://observed and connectome://diff read what it
    // saw (edge identities, counts and latencies, never a payload).
    const demo = await startDemo({
      port: options.port,
      allowedOrigins: options.origins,
      ...(options.sessions ? { sessions: true } : {}),
    });
    // Registered before the banner: a supervisor may signal as soon as it reads the URL.
    const stop = (): void => {
      void demo.close().then(() => process.exit(0));
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    const url = demo.url;
    process.stderr.write(
      `palisade demo: serving MCP (Streamable HTTP, ${options.sessions ? 'sessions on' : 'stateless'}) at ${url}\n` +
        `  Connect an MCP client to that URL, for example:\n` +
        `    new StreamableHTTPClientTransport(new URL('${url}'))   (official TypeScript SDK)\n` +
        `  or try it by hand: initialize, then call a tool with the MCP-Protocol-Version header the\n` +
        `  answer named (each request stands alone; without the header it is read as 2026-07-28):\n` +
        `    curl -s ${url} -H 'content-type: application/json' -H 'accept: application/json' \\\n` +
        `      -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}'\n` +
        `    curl -s ${url} -H 'content-type: application/json' -H 'accept: application/json' \\\n` +
        `      -H 'mcp-protocol-version: 2025-11-25' \\\n` +
        `      -d '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"}}}'\n` +
        `  Ctrl-C stops it.\n`,
    );
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const reason =
      code === 'EADDRINUSE'
        ? `port ${options.port} is in use: pass --port with another one (0 picks a free port)`
        : error instanceof Error
          ? error.message
          : String(error);
    process.stderr.write(`palisade-demo: cannot serve: ${reason}\n`);
    process.exit(1);
  }
}
