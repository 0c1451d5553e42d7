/**
 * Every package manifest says where the package lives: `repository` (with its `directory` in the
 * monorepo), `homepage` and `bugs`. The registry's page links to them, and resolves a package
 * README's relative links (`../../docs/http.md`) against `repository.directory`; without them those
 * links break there. All name one repository, so changing it is a change in one place per file,
 * held here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const REPOSITORY = 'https://github.com/palisade-mcp/palisade';

interface Manifest {
  readonly name: string;
  readonly repository?: { readonly type?: string; readonly url?: string; readonly directory?: string };
  readonly homepage?: string;
  readonly bugs?: { readonly url?: string };
}

const MANIFESTS: ReadonlyArray<readonly [string, Manifest]> = [
  ['', JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest],
  ...readdirSync(join(ROOT, 'packages')).map(
    (folder) =>
      [
        `packages/${folder}`,
        JSON.parse(readFileSync(join(ROOT, 'packages', folder, 'package.json'), 'utf8')) as Manifest,
      ] as const,
  ),
];

describe('every package manifest', () => {
  test('the workspace root and each package are checked', () => {
    expect(MANIFESTS.map(([folder]) => folder)).toEqual(
      expect.arrayContaining(['', 'packages/palisade-mcp', 'packages/demo']),
    );
  });

  test.each(MANIFESTS)('%s names its repository, homepage and issue tracker', (folder, manifest) => {
    expect(manifest.repository).toEqual(
      folder === ''
        ? { type: 'git', url: `git+${REPOSITORY}.git` }
        : { type: 'git', url: `git+${REPOSITORY}.git`, directory: folder },
    );
    expect(manifest.homepage).toBe(
      folder === '' ? `${REPOSITORY}#readme` : `${REPOSITORY}/tree/main/${folder}#readme`,
    );
    expect(manifest.bugs).toEqual({ url: `${REPOSITORY}/issues` });
  });
});
