import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { encodeGraph } from '../../src/canonical.js';
import type { Graph } from '../../src/graph.js';
import { encodeSidecar } from '../../src/sidecar.js';
import { diffDeclared, diffObserved, fixture, richGolden, workedExample } from '../fixtures/graphs.js';
import { MALICIOUS, renderDeclared, renderObserved } from './render-fixtures.js';

const CLI = fileURLToPath(new URL('../../../palisade-mcp/dist/cli/main.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'palisade-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(...args: string[]) {
  return spawnSync(process.execPath, [CLI, 'connectome', ...args], { encoding: 'utf8', cwd: dir });
}

/** The usage `--help` prints for the command (or for `connectome` itself). */
function usageOf(...command: string[]): string {
  return run(...command, '--help').stdout;
}

function runBytes(...args: string[]) {
  return spawnSync(process.execPath, [CLI, 'connectome', ...args], { cwd: dir });
}

function write(name: string, content: string | Uint8Array): string {
  writeFileSync(join(dir, name), content);
  return name;
}

function graphFile(name: string, graph: Graph): string {
  return write(name, encodeGraph(graph));
}

const worked = graphFile('worked.json', workedExample());
const declared = graphFile('declared.json', diffDeclared());
const observed = graphFile('observed.json', diffObserved());
const golden = graphFile('golden.json', richGolden());
const sidecar = write('golden.sidecar.json', encodeSidecar(richGolden()));
const page = graphFile('page.json', renderDeclared());
const pageObserved = graphFile('page-observed.json', renderObserved());

describe('palisade connectome: help and usage', () => {
  test('connectome --help lists the commands, the npx -p form and the exit codes', () => {
    const r = run('--help');
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^usage: palisade connectome <command> \[options\]\n/);
    expect(r.stdout).toContain('npx -p palisade-mcp -p palisade-mcp-connectome palisade connectome ...');
    expect(r.stdout).toContain(
      'Exit codes: 0 success, 1 an input refused (one line on stderr naming its code), 2 usage error.',
    );
  });

  test.each(['declared', 'observed', 'diff', 'reach', 'render'])(
    'connectome %s --help prints its usage',
    (name) => {
      const r = run(name, '--help');
      expect(r.status).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.stdout).toMatch(new RegExp(`^usage: palisade connectome ${name} `));
      expect(r.stdout).toContain('Exit codes: 0 success, 1 an input refused');
    },
  );

  test('the top-level help names the connectome command and the npx -p form', () => {
    const r = spawnSync(process.execPath, [CLI, '--help'], { encoding: 'utf8' });
    expect(r.stdout).toContain('  connectome  export, diff, query and draw');
    expect(r.stdout).toContain('npx -p palisade-mcp palisade <command> ...');
  });

  test('an unknown connectome command is a usage error with exit code 2, the usage on stderr', () => {
    const r = run('frobnicate');
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`palisade connectome: unknown command "frobnicate"\n\n${usageOf()}`);
  });

  test.each(['declared', 'observed', 'diff', 'reach', 'render'])(
    'an unknown option to connectome %s is a usage error with exit code 2, its usage on stderr',
    (name) => {
      const r = run(name, worked, '--frm', 'x');
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        `palisade connectome ${name}: Unknown option '--frm'. To specify a positional argument starting with a '-', place it at the end of the command after '--', as in '-- "--frm"\n\n${usageOf(name)}`,
      );
    },
  );

  test('a missing file argument is a usage error with exit code 2', () => {
    const r = run('diff', declared);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`palisade connectome diff: expected 2 files, got 1\n\n${usageOf('diff')}`);
  });

  test('diff without a window is a usage error: the window is never inferred', () => {
    const r = run('diff', declared, observed);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `palisade connectome diff: diff needs --window-start and --window-end; the window is never inferred\n\n${usageOf('diff')}`,
    );
  });

  test('an unknown --format is a usage error', () => {
    const r = run('render', worked, '--format', 'svg');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(
      /^palisade connectome render: --format "svg" is not one of html, dot, graphml, json\n/,
    );
  });
});

describe('palisade connectome: data on stdout', () => {
  test('declared prints the worked example byte for byte, no trailing newline', () => {
    const r = runBytes('declared', worked);
    expect(r.status).toBe(0);
    expect(r.stderr.toString()).toBe('');
    expect(r.stdout.equals(fixture('worked-example.jcs'))).toBe(true);
  });

  test('declared --hash prints the worked example hash', () => {
    const r = run('declared', worked, '--hash');
    expect(r.stdout).toBe('a401cd47f0f0410d17248538eb8a3ef00018f6a31bf6fb6a7b9b0ba3377f570e\n');
    expect(r.status).toBe(0);
  });

  test('observed prints an observed graph under the algorithm asked for', () => {
    const r = run('observed', observed, '--algorithm', 'sha384');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^\{"schema_version":3,"algorithm":"sha384","nodes":/);
  });

  test('diff prints the worked example diff record, 800 bytes, with its golden hash', () => {
    const window = ['--window-start', '2026-09-14T00:00:00Z', '--window-end', '2026-09-14T01:00:00Z'];
    const r = runBytes('diff', declared, observed, ...window);
    expect(r.status).toBe(0);
    expect(r.stderr.toString()).toBe('');
    expect(r.stdout.equals(fixture('diff-worked-example.jcs'))).toBe(true);
    expect(run('diff', declared, observed, ...window, '--hash').stdout).toBe(
      'a8a4206fb65febc83ed099be8b7408b6938795efc8a92f7cac1f53781c4312e1\n',
    );
  });

  test('reach prints reachable and the shortest witness of the graph own edges', () => {
    const r = run('reach', golden, '--from', 'srv/server', '--to', 'srv/module/Enum');
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      '{"avoid":[],"from":"srv/server","reachable":true,"to":"srv/module/Enum","witness":{"edges":[{"from":"srv/server","kind":"invoke","provenance":"declared","sign":"unset","to":"srv/tool/écho"},{"from":"srv/tool/écho","kind":"invoke","provenance":"declared","sign":"unset","to":"srv/module/Enum"}],"nodes":["srv/server","srv/tool/écho","srv/module/Enum"]}}\n',
    );
  });

  test('reach avoiding the only way through answers unreachable with exit code 0', () => {
    const r = run(
      'reach',
      golden,
      '--from',
      'srv/server',
      '--to',
      'srv/module/Enum',
      '--avoid',
      'srv/tool/écho',
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(
      '{"avoid":["srv/tool/écho"],"from":"srv/server","reachable":false,"to":"srv/module/Enum","witness":null}\n',
    );
  });

  test('render --format dot draws the golden with its sidecar weights', () => {
    const r = run('render', golden, '--sidecar', sidecar, '--format', 'dot');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^digraph "connectome" \{\n/);
    expect(r.stdout).toContain(
      '"srv/tool/écho" -> "srv/resource/r:%2F%2Fa" [label="read x3", kind="read", provenance="observed"',
    );
  });

  test('render --format graphml escapes the malicious node', () => {
    const r = run('render', page, '--format', 'graphml');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('<node id="&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;">');
  });

  test('render writes a self-contained page by default, the malicious node escaped', () => {
    const r = run('render', page, '--observed', pageObserved);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^<!doctype html>\n/);
    expect(r.stdout).not.toContain(MALICIOUS);
    expect(r.stdout.split('<script').length - 1).toBe(2);
  });

  test('render --format json prints the data the page embeds', () => {
    const r = run('render', page, '--format', 'json');
    const model = JSON.parse(r.stdout) as { views: { name: string; nodes: unknown[] }[] };
    expect(model.views.map((v) => [v.name, v.nodes.length])).toEqual([['declared', 6]]);
  });
});

describe('palisade connectome: refusals are one line and exit code 1', () => {
  test('a missing file is refused by name', () => {
    const r = run('declared', 'nope.json');
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'palisade connectome declared: PALISADE_ERR_CLI_INPUT: nope.json cannot be opened (ENOENT)\n',
    );
  });

  test('a file that is not JSON is refused by name', () => {
    const r = run('declared', write('bad.json', '{"nodes": ['));
    expect(r.stderr).toBe(
      'palisade connectome declared: PALISADE_ERR_CLI_INPUT: bad.json is not valid JSON\n',
    );
    expect(r.status).toBe(1);
  });

  test('a repeated key is refused, not resolved to the last value', { tags: ['threat-model'] }, () => {
    const r = run('declared', write('twice.json', '{"nodes":[],"edges":[],"nodes":[]}'));
    expect(r.stderr).toBe(
      'palisade connectome declared: PALISADE_ERR_CLI_INPUT: twice.json repeats the key "nodes"\n',
    );
    expect(r.status).toBe(1);
  });

  test('a file above the wire bound is still read with the same checks', () => {
    const padding = ' '.repeat(1_100_000);
    const r = run('declared', write('big.json', `{"nodes":[],${padding}"edges":[],"nodes":[]}`));
    expect(r.stderr).toBe(
      'palisade connectome declared: PALISADE_ERR_CLI_INPUT: big.json repeats the key "nodes"\n',
    );
    expect(r.status).toBe(1);
  });

  test('a file beyond 64 MiB is refused before it is read', { tags: ['threat-model'] }, () => {
    const name = write('huge.json', '');
    truncateSync(join(dir, name), 67_108_865);
    const r = run('declared', name);
    expect(r.stderr).toBe(
      'palisade connectome declared: PALISADE_ERR_CLI_INPUT: huge.json is 67108865 bytes, more than the 67108864-byte input bound\n',
    );
    expect(r.status).toBe(1);
  });

  test('a dangling edge is refused by createGraph, naming the file', { tags: ['threat-model'] }, () => {
    const text =
      '{"nodes":[{"id":"a","kind":"tool","level":"server"}],"edges":[{"from":"a","to":"b","kind":"invoke","provenance":"declared"}]}';
    const r = run('declared', write('dangling.json', text));
    expect(r.stderr).toBe(
      'palisade connectome declared: PALISADE_ERR_CONNECTOME_DANGLING_EDGE: dangling.json: edge "a" -invoke/declared-> "b" names "b", which is not a node of the graph\n',
    );
    expect(r.status).toBe(1);
  });

  test('a graph of a schema version never written is refused', () => {
    const text = readFileSync(join(dir, worked), 'utf8').replace('"schema_version":3', '"schema_version":4');
    const r = run('declared', write('v4.json', text));
    expect(r.stderr).toBe(
      'palisade connectome declared: PALISADE_ERR_CONNECTOME_INVALID: v4.json: schema_version is 4; this reads 3\n',
    );
  });

  test('a mixed graph is refused as declared, naming the stray edge', () => {
    const r = run('declared', golden);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      'palisade connectome declared: PALISADE_ERR_CONNECTOME_PROVENANCE: golden.json: the declared graph holds an observed edge "srv/module/Enum" -> "srv/boundary/application/beam_mcp"\n',
    );
  });

  test('reach from a node the graph does not hold is refused by name', () => {
    const r = run('reach', golden, '--from', 'srv/server', '--to', 'nope');
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'palisade connectome reach: PALISADE_ERR_CONNECTOME_UNKNOWN_NODE: "nope" is not a node of the graph\n',
    );
  });

  test('a sidecar weighing an edge no graph holds is refused, naming the sidecar', () => {
    const r = run('render', worked, '--sidecar', sidecar);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^palisade connectome render: PALISADE_ERR_CONNECTOME_SIDECAR: golden\.sidecar\.json: the sidecar weighs "srv\/module\/Enum" -message\/observed-> .*, which no graph given holds\n$/,
    );
  });

  test('a name GraphML cannot carry is refused by name, one line, no stack', () => {
    const text = '{"nodes":[{"id":"bell\\u0007","kind":"tool","level":"server"}],"edges":[]}';
    const r = run('render', write('bell.json', text), '--format', 'graphml');
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'palisade connectome render: PALISADE_ERR_CONNECTOME_XML_CHAR: node "bell\\u0007" id holds U+0007, which XML 1.0 cannot carry; it is refused rather than dropped\n',
    );
  });
});
