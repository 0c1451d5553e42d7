/**
 * The declarations a host compiles against say only what it may use. A member the source marks
 * `@internal` (the checked catalog and the other parts of a `Server` the transports read) is
 * stripped from the built `.d.ts` (`stripInternal`), so the public `Server` type names only what a
 * host may read or call, and the modules only those members named are no longer reached from an
 * entry point's types. palisade-mcp-connectome and palisade-mcp-auth compile against these same
 * built declarations (through the exports map), so their build is the proof they use nothing else.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { child, children, nameOf, parse, walk } from '../census/source.js';

const PACKAGE = fileURLToPath(new URL('../..', import.meta.url));

function filesUnder(dir: string, suffix: string): string[] {
  return readdirSync(join(PACKAGE, dir), { recursive: true, encoding: 'utf8' })
    .map((entry) => join(dir, entry.split('\\').join('/')))
    .filter((file) => file.endsWith(suffix))
    .sort();
}

/** The `.d.ts` files reached from the exports map's `types`, following relative imports. */
function reachedDeclarations(): Set<string> {
  const manifest = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')) as {
    exports: Record<string, string | { types?: string }>;
  };
  const pending = Object.values(manifest.exports).flatMap((target) =>
    typeof target === 'object' && target.types !== undefined ? [normalize(target.types)] : [],
  );
  const seen = new Set<string>();
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(join(PACKAGE, file), 'utf8');
    for (const match of text.matchAll(/from '(\.[^']+)'|import\('(\.[^']+)'\)/g)) {
      const specifier = (match[1] ?? match[2]) as string;
      const target = normalize(join(dirname(file), specifier)).replace(/\.js$/, '.d.ts');
      if (existsSync(join(PACKAGE, target))) pending.push(target);
    }
  }
  return seen;
}

/** The member names of an interface declared in a `.d.ts`. */
function interfaceMembers(file: string, name: string): string[] {
  const parsed = parse(file, readFileSync(join(PACKAGE, file), 'utf8'));
  const members: string[] = [];
  walk(parsed.program, (node) => {
    if (node.type !== 'TSInterfaceDeclaration' || nameOf(child(node, 'id')) !== name) return;
    const body = child(node, 'body');
    for (const member of body === null ? [] : children(body, 'body')) {
      members.push(nameOf(child(member, 'key')) ?? '?');
    }
  });
  return members;
}

describe('the shipped declarations of palisade-mcp', () => {
  test('the source marks members @internal, so stripping them is not vacuous', () => {
    const marked = filesUnder('src', '.ts').filter((file) =>
      readFileSync(join(PACKAGE, file), 'utf8').includes('@internal'),
    );
    expect(marked).toContain('src/protocol/server-shape.ts');
  });

  test('no shipped declaration carries a member marked @internal', () => {
    const declarations = filesUnder('dist', '.d.ts');
    expect(declarations.length).toBeGreaterThan(20);
    expect(
      declarations.filter((file) => readFileSync(join(PACKAGE, file), 'utf8').includes('@internal')),
    ).toEqual([]);
  });

  test('the Server a host sees names only what a host may read or call', () => {
    expect(interfaceMembers('dist/protocol/server-shape.d.ts', 'Server').sort()).toEqual([
      'cache',
      'info',
      'instructions',
      'notifyListChanged',
      'notifyResourceUpdated',
      'pageSize',
      'supportedVersions',
    ]);
  });

  test('the Server the transports read keeps its internal members in the source', () => {
    expect(interfaceMembers('src/protocol/server-shape.ts', 'Server')).toEqual(
      expect.arrayContaining(['catalog', 'requestState', 'tasks', 'changes']),
    );
  });

  test("an entry point's types reach none of the modules only the internal members named", () => {
    const reached = [...reachedDeclarations()].map((file) => relative('dist', file));
    expect(reached).toContain('index.d.ts');
    expect(reached).toContain('protocol/server-shape.d.ts');
    expect(
      reached.filter((file) =>
        [
          'catalog/catalog.d.ts',
          'protocol/change-hub.d.ts',
          'protocol/request-state.d.ts',
          'protocol/tasks/config.d.ts',
        ].includes(file),
      ),
    ).toEqual([]);
  });
});
