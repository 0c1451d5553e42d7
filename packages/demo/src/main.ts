#!/usr/bin/env node
/**
 * `npm start` runs this: the demo catalog served over stdio (`--stdio`, the default until the
 * HTTP transport lands). Diagnostics go to stderr; stdout carries protocol messages only.
 */
import { parseArgs } from 'node:util';
import { createServer } from 'palisade-mcp';
import { runStdio } from 'palisade-mcp/stdio';
import { demoCatalog } from './catalog.js';

const { values } = parseArgs({
  options: {
    stdio: { type: 'boolean', default: true },
    help: { type: 'boolean', short: 'h', default: false },
  },
  strict: true,
});

if (values.help) {
  process.stderr.write(
    'usage: palisade-demo [--stdio]\n  Serves the demo catalog over stdio (newline-delimited JSON-RPC).\n',
  );
  process.exit(0);
}

const server = createServer(demoCatalog);
process.stderr.write(
  'palisade demo: serving over stdio. Connect an MCP client with: node packages/demo/dist/main.js --stdio\n',
);
runStdio(server);
