/**
 * The package imports no npm package but its runtime dependencies: those it declares and those
 * compiled into its bundle (ajv, ajv-formats; scripts/bundle-config.mjs). zod,
 * valibot and ArkType are optional peers: a tool schema from one of them is read through the
 * Standard JSON Schema interface the schema object itself carries, never by importing the
 * library, so a host without them installs and runs Palisade unchanged. Type-only imports count:
 * a declaration file naming `zod` would fail to compile for a host without it.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { INLINED_PACKAGES } from '../../../../scripts/bundle-config.mjs';
import { type Census, importsOf, parse, plant, runCensus, type Violation } from './source.js';

const MANIFEST = fileURLToPath(new URL('../../package.json', import.meta.url));
const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8')) as { dependencies?: Record<string, string> };
const DEPENDENCIES = [...Object.keys(manifest.dependencies ?? {}), ...INLINED_PACKAGES];

/**
 * Sibling packages the CLI loads with `import()` only when a command needs one, refusing by name
 * when it is missing: never loaded by the library itself.
 */
const CLI_ON_DEMAND = new Set([
  // `palisade connectome ...` (cli/connectome.ts).
  'palisade-mcp-connectome',
  // `palisade demo` (cli/demo.ts).
  'palisade-demo',
]);

/** `ajv/dist/2020.js` → `ajv`, `@scope/name/x` → `@scope/name`. */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

const onlyDependencies: Census = (file, source) => {
  const parsed = parse(file, source);
  const found: Violation[] = [];
  for (const record of importsOf(parsed)) {
    const { specifier } = record;
    if (specifier.startsWith('.') || specifier.startsWith('node:')) continue;
    const name = packageOf(specifier);
    if (record.kind === 'dynamic' && file.startsWith('cli/') && CLI_ON_DEMAND.has(name)) continue;
    if (!DEPENDENCIES.includes(name)) {
      found.push({ file, line: record.line, what: `imports ${name}` });
    }
  }
  return found;
};

describe('census: no package but the runtime dependencies', () => {
  test('every package a source file imports is a runtime dependency', () => {
    expect(runCensus(onlyDependencies)).toEqual([]);
  });

  test('a planted type-only import of zod is named', () => {
    const planted = "import type { ZodType } from 'zod';\nexport type T = ZodType;\n";
    expect(plant(onlyDependencies, 'catalog/planted.ts', planted)).toEqual([
      'catalog/planted.ts:1 imports zod',
    ]);
  });

  test('a planted import() of zod outside the CLI is named', () => {
    const planted = "export const load = () => import('zod');\n";
    expect(plant(onlyDependencies, 'catalog/planted.ts', planted)).toEqual([
      'catalog/planted.ts:1 imports zod',
    ]);
  });

  test('a planted import of a scoped converter is named', () => {
    const planted =
      "import { toStandardJsonSchema } from '@valibot/to-json-schema';\nexport { toStandardJsonSchema };\n";
    expect(plant(onlyDependencies, 'catalog/planted.ts', planted)).toEqual([
      'catalog/planted.ts:1 imports @valibot/to-json-schema',
    ]);
  });
});
