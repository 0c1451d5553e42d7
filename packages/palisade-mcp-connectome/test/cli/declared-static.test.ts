/**
 * `palisade connectome declared FILE --static ROOT`, through the built CLI in a child process:
 * the workspace's `palisade-mcp-static` is loaded on demand, and a copy of the built packages in a
 * scratch directory, where that package cannot be resolved, shows the refusal when it is absent.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer, defineTool } from 'palisade-mcp';
import { analyzeScope } from 'palisade-mcp-static';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { encodeGraph, encodeValue } from '../../src/canonical.js';
import { declaredFromCatalog } from '../../src/declared.js';
import { staticToDeclared } from '../../src/static-adapter.js';

const PACKAGES = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = join(PACKAGES, 'palisade-mcp/dist/cli/main.js');

const TREE: Record<string, string> = {
  'src/tools/lookup.ts':
    "import { query } from '../db.js';\nexport function lookup(k: string) { return query(k); }\n",
  'src/db.ts':
    "import { readFileSync } from 'node:fs';\n" +
    'export function query(k: string) { return readFileSync(k, "utf8"); }\n' +
    "export async function plugin(name: string) { return import('./plugins/' + name); }\n",
};
const MODULES = { lookup: 'src/tools/lookup.ts' };

const server = createServer({
  name: 'app',
  version: '1',
  tools: ['lookup', 'ping'].map((name) =>
    defineTool({ name, inputSchema: { type: 'object' }, handler: () => ({ content: [] }) }),
  ),
});

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'palisade-cli-static-'));
  for (const [file, text] of Object.entries(TREE)) {
    mkdirSync(join(dir, 'app', file, '..'), { recursive: true });
    writeFileSync(join(dir, 'app', file), text);
  }
  writeFileSync(join(dir, 'declared.json'), encodeGraph(declaredFromCatalog(server, { modules: MODULES })));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(cli: string, ...args: string[]) {
  return spawnSync(process.execPath, [cli, 'connectome', 'declared', 'declared.json', ...args], {
    encoding: 'utf8',
    cwd: dir,
  });
}

describe('palisade connectome declared --static', () => {
  test('the code under ROOT is merged in, byte for byte as the library merges the same read', () => {
    const out = run(CLI, '--static', 'app', '--bound', 'bound.json');
    expect(out.stderr).toBe('');
    expect(out.status).toBe(0);
    const read = analyzeScope({ root: join(dir, 'app') });
    const expected = staticToDeclared(server, read, { modules: MODULES });
    expect(out.stdout).toBe(Buffer.from(encodeGraph(expected.graph)).toString('utf8'));
    expect(out.stdout).toContain('"to":"app/module/src%2Fdb.ts"');
  });

  test('--bound writes the completeness bound: the dynamic import, the callee outside the scope, the unmapped tool', () => {
    run(CLI, '--static', 'app', '--bound', 'bound-listed.json');
    const bound = JSON.parse(readFileSync(join(dir, 'bound-listed.json'), 'utf8')) as Record<string, unknown>;
    expect(bound).toEqual({
      'dynamic-import': [{ detail: "import('./plugins/' + name)", file: 'src/db.ts', line: 3 }],
      'outside-scope': [{ detail: 'node:fs', file: 'src/db.ts', line: 1 }],
      'tool-without-module': ['ping'],
    });
    const read = analyzeScope({ root: join(dir, 'app') });
    const expected = staticToDeclared(server, read, { modules: MODULES }).bound;
    expect(readFileSync(join(dir, 'bound-listed.json'))).toEqual(Buffer.from(encodeValue(expected)));
  });

  test('without --bound, stderr names the reasons the read could not see everything', () => {
    const out = run(CLI, '--static', 'app');
    expect(out.status).toBe(0);
    expect(out.stderr).toContain('(outside-scope, dynamic-import, tool-without-module)');
  });

  test('--level function adds a node per top-level function and its call edges', () => {
    const out = run(CLI, '--static', 'app', '--level', 'function');
    expect(out.status).toBe(0);
    const from = 'app/module/src%2Ftools%2Flookup.ts/lookup';
    expect(out.stdout).toContain(
      `{"from":"${from}","kind":"invoke","provenance":"declared","sign":"unset","to":"app/module/src%2Fdb.ts/query"}`,
    );
  });

  test('--include narrows the scope: a module left out is no node, and the bound lists the import of it', () => {
    const out = run(CLI, '--static', 'app', '--include', 'src/tools', '--bound', 'bound-narrow.json');
    expect(out.status).toBe(0);
    expect(out.stdout).not.toContain('"id":"app/module/src%2Fdb.ts"');
    const bound = JSON.parse(readFileSync(join(dir, 'bound-narrow.json'), 'utf8')) as Record<string, unknown>;
    expect(bound['outside-scope']).toEqual([{ detail: '../db.js', file: 'src/tools/lookup.ts', line: 1 }]);
  });

  test('a level outside module, function and boundary is a usage error', () => {
    const out = run(CLI, '--static', 'app', '--level', 'package');
    expect(out.status).toBe(2);
    expect(out.stderr).toContain('--level "package" is not one of module, function, boundary');
  });

  test('a static option without --static is a usage error, not ignored', () => {
    const out = run(CLI, '--level', 'function');
    expect(out.status).toBe(2);
    expect(out.stderr).toContain('--level applies with --static only');
  });

  test("the analyser's own refusal exits 1 under its code", () => {
    const out = run(CLI, '--static', 'no-such-root');
    expect(out.status).toBe(1);
    expect(out.stderr).toMatch(/^palisade connectome declared: PALISADE_STATIC_ERR_ROOT: /);
    expect(out.stdout).toBe('');
  });

  test('a graph without exactly one server node is refused by name, since code ids could not meet it', () => {
    writeFileSync(join(dir, 'serverless.json'), '{"nodes":[],"edges":[]}');
    const out = spawnSync(
      process.execPath,
      [CLI, 'connectome', 'declared', 'serverless.json', '--static', 'app'],
      { encoding: 'utf8', cwd: dir },
    );
    expect(out.status).toBe(1);
    expect(out.stderr).toContain(
      'PALISADE_ERR_CONNECTOME_INVALID: --static needs a declared graph with exactly one server node',
    );
  });

  test('without palisade-mcp-static installed, --static is refused by name with the install command', () => {
    // The built server and connectome packages, alone (the server's Ajv is compiled into its
    // bundle), where no node_modules above them holds the analyser.
    const modules = join(dir, 'isolated', 'node_modules');
    for (const [name, folder] of [
      ['palisade-mcp', 'palisade-mcp'],
      ['palisade-mcp-connectome', 'palisade-mcp-connectome'],
    ] as const) {
      cpSync(join(PACKAGES, folder, 'dist'), join(modules, name, 'dist'), { recursive: true });
      cpSync(join(PACKAGES, folder, 'package.json'), join(modules, name, 'package.json'));
    }
    const isolatedCli = join(modules, 'palisade-mcp/dist/bundle/cli.js');
    const out = run(isolatedCli, '--static', 'app');
    expect(out.status).toBe(1);
    expect(out.stdout).toBe('');
    expect(out.stderr).toBe(
      'palisade connectome declared: PALISADE_ERR_CLI_STATIC_MISSING: --static needs the package palisade-mcp-static, which is not installed; install it beside palisade-mcp (npm install --save-dev palisade-mcp-static) or, without installing, run npx -p palisade-mcp -p palisade-mcp-connectome -p palisade-mcp-static palisade connectome declared ...\n',
    );
    // The same copy serves a declared graph without --static: nothing else needs the analyser.
    expect(run(isolatedCli).status).toBe(0);
  });
});
