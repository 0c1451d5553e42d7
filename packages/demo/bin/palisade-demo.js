#!/usr/bin/env node
// The `palisade-demo` command: loads the compiled demo from dist/. This file is plain JavaScript
// and committed, so npm links the command when it installs the package; a bin pointing into dist/
// would not exist yet when `npm ci` links bins in a checkout.
import { existsSync } from 'node:fs';

const main = new URL('../dist/main.js', import.meta.url);
if (existsSync(main)) {
  await import(main.href);
} else {
  process.stderr.write(
    'palisade-demo: palisade-demo is not built (dist/main.js is missing): run `npm run build` in the repository\n',
  );
  process.exitCode = 1;
}
