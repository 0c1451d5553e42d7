#!/usr/bin/env node
/**
 * Serves the conformance fixture: over Streamable HTTP on 127.0.0.1, sessions on for the 2025
 * revisions and 2026-07-28 stateless as ever (the bound URL,
 * `http://127.0.0.1:PORT/mcp`, is the one line written to stdout, so a runner can read it), or over
 * stdio with `--stdio`. Diagnostics go to stderr.
 */
import { parseArgs } from 'node:util';
import { serve } from 'palisade-mcp/http';
import { serveStdio } from 'palisade-mcp/stdio';
import { createFixtureServer } from './fixture/server.js';
import { POLL_AFTER_MS } from './fixture/sessions.js';

const USAGE = `usage: palisade-conformance-fixture [--port N | --stdio]
  --port N   the port to bind on 127.0.0.1 (default 0: a free one)
  --stdio    serve over stdin/stdout instead
`;

function usageError(message: string): never {
  process.stderr.write(`palisade-conformance-fixture: ${message}\n\n${USAGE}`);
  process.exit(2);
}

function parse(): { port: number; stdio: boolean } {
  let values: { port: string; stdio: boolean };
  try {
    ({ values } = parseArgs({
      options: { port: { type: 'string', default: '0' }, stdio: { type: 'boolean', default: false } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    usageError(error instanceof Error ? error.message : String(error));
  }
  const port = Number(values.port);
  if (!/^[0-9]{1,5}$/.test(values.port) || port > 65_535)
    usageError('--port must be an integer from 0 to 65535');
  return { port, stdio: values.stdio };
}

const options = parse();
const server = createFixtureServer();

if (options.stdio) {
  serveStdio(server);
} else {
  const serving = await serve(server, {
    port: options.port,
    // The suite is the only caller, on loopback; the principal names it in handlers' ctx.auth.
    authorize: () => ({ ok: true, auth: { principal: 'conformance' } }),
    // dns-rebinding-protection's valid probe carries this server's own origin, which an ephemeral
    // port makes unknowable before binding. The loopback Host allow-list (serve()'s default) is
    // what refuses the rebinding probe (Host evil.example.com: 421), and it stays on.
    allowedOrigins: 'any',
    // The 2025 scenarios that ask the client (sampling, elicitation) or resume a stream need a
    // session; a stream held longer than POLL_AFTER_MS is released for the client to poll.
    sessions: { pollAfterMs: POLL_AFTER_MS },
  });
  const stop = (): void => {
    void serving.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  process.stdout.write(`${serving.url}/mcp\n`);
}
