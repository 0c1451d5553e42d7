/**
 * How the `palisade` command loads an optional package's export: an absent package and a package
 * without the export are each refused by name with the command's code, and any other failure of
 * the import (a module missing inside an installed package) comes through as itself.
 */
import { describe, expect, test } from 'vitest';
import { loadOptionalExport, type OptionalExport } from '../../src/cli/optional-package.js';
import { PalisadeError } from '../../src/errors.js';

const WANTED: OptionalExport = {
  packageName: 'palisade-demo',
  exportName: 'startDemo',
  exportDescription: 'startDemo function',
  code: 'PALISADE_ERR_CLI_DEMO_MISSING',
  notInstalled: 'palisade-demo is not installed',
};

/** What Node throws when `import()` cannot resolve `specifier`. */
function notFound(specifier: string): Error {
  return Object.assign(new Error(`Cannot find package '${specifier}' imported from /app/cli.js`), {
    code: 'ERR_MODULE_NOT_FOUND',
  });
}

async function refusalOf(load: () => Promise<unknown>): Promise<PalisadeError> {
  const error = await loadOptionalExport(load, WANTED).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof PalisadeError)) throw new Error(`not a named refusal: ${String(error)}`);
  return error;
}

describe('loading an optional package’s export', () => {
  test('the export is returned when the package has it', async () => {
    const startDemo = (): string => 'started';
    expect(await loadOptionalExport(async () => ({ startDemo }), WANTED)).toBe(startDemo);
  });

  test('a package that is not installed is refused with the code and the install advice', async () => {
    const error = await refusalOf(() => Promise.reject(notFound('palisade-demo')));
    expect([error.code, error.message]).toEqual([
      'PALISADE_ERR_CLI_DEMO_MISSING',
      'palisade-demo is not installed',
    ]);
  });

  test('a package without the export is refused with the code, naming what it lacks', async () => {
    const error = await refusalOf(async () => ({ startDemo: 'not a function' }));
    expect([error.code, error.message]).toEqual([
      'PALISADE_ERR_CLI_DEMO_MISSING',
      'the installed palisade-demo exports no startDemo function; install a version that does',
    ]);
  });

  test('a module missing inside the installed package is thrown as itself, not as an absent package', async () => {
    const inside = notFound('./catalog.js');
    await expect(loadOptionalExport(() => Promise.reject(inside), WANTED)).rejects.toBe(inside);
  });
});
