#!/usr/bin/env node
/**
 * The `palisade` command. Data goes to stdout, diagnostics to stderr. Exit codes: 0 success,
 * 2 usage error. Subcommands (the demo, the connectome) arrive with their issues.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const USAGE = `usage: palisade [--help] [--version]

Palisade is an MCP server library; this command carries its tooling.
  --help      print this help
  --version   print the palisade-mcp version

Exit codes: 0 success, 2 usage error.
`;

function version(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}

export function main(argv: readonly string[]): number {
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

process.exitCode = main(process.argv.slice(2));
