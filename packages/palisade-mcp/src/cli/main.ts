#!/usr/bin/env node
/**
 * The `palisade` command. Data goes to stdout, diagnostics to stderr. Exit codes: 0 success,
 * 1 an input refused (or, for `demo`, could not serve), 2 usage error. Subcommands: `demo`
 * (cli/demo.ts) and `connectome` (cli/connectome.ts).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { connectome } from './connectome.js';
import { demo } from './demo.js';

const USAGE = `usage: palisade [--help] [--version] <command> ...

Palisade is an MCP server library; this command carries its tooling.
  --help      print this help
  --version   print the palisade-mcp version

Commands:
  demo        serve the demo catalog over HTTP or stdio, to try a client against (needs the
              palisade-demo package; run 'palisade demo --help')
  connectome  export, diff, query and draw a server's connectome from exported JSON files
              (needs the palisade-mcp-connectome package; run 'palisade connectome --help')

Without installing: npx -p palisade-mcp palisade <command> ...
(a bare 'npx palisade' would fetch whatever package is named "palisade", not this one.)

Exit codes: 0 success, 1 an input refused or the demo could not serve, 2 usage error.
`;

function version(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}

export function main(argv: readonly string[]): number | Promise<number> {
  if (argv[0] === 'connectome') return connectome(argv.slice(1));
  if (argv[0] === 'demo') return demo(argv.slice(1));
  let values: { help?: boolean; version?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...argv],
      options: { help: { type: 'boolean', short: 'h' }, version: { type: 'boolean', short: 'v' } },
      allowPositionals: true,
      strict: true,
    }));
  } catch (error) {
    process.stderr.write(`palisade: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.version) {
    process.stdout.write(`${version()}\n`);
    return 0;
  }
  if (values.help || positionals.length === 0) {
    process.stdout.write(USAGE);
    return 0;
  }
  process.stderr.write(`palisade: unknown command ${JSON.stringify(positionals[0])}\n${USAGE}`);
  return 2;
}

const code = main(process.argv.slice(2));
if (typeof code === 'number') process.exitCode = code;
else
  void code.then((settled) => {
    process.exitCode = settled;
  });
