#!/usr/bin/env node
// The `palisade` command: loads the compiled CLI from dist/. This file is plain JavaScript and
// committed, so npm links the command when it installs the package; a bin pointing into dist/
// would not exist yet when `npm ci` links bins in a checkout, and `npx palisade` would find nothing.
import { existsSync } from 'node:fs';

const cli = new URL('../dist/bundle/cli.js', import.meta.url);
if (existsSync(cli)) {
  await import(cli.href);
} else {
  process.stderr.write(
    'palisade: palisade-mcp is not built (dist/bundle/cli.js is missing): run `npm run build` in the repository\n',
  );
  process.exitCode = 1;
}
