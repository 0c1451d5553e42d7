// Bundles palisade-mcp's compiled entry points into a few files, after `tsc -b` has built dist/.
//
// A stdio server is spawned for every session of a desktop client, so its start-up is time a user
// waits, and most of that time was module loading: about 150 compiled files of ours through the
// ESM loader and about 100 of Ajv's through the CommonJS one (docs/benchmarks.md, "Cold start over
// stdio"). One esbuild pass over all the entry points with code splitting gives one file per entry
// and shared chunks, so `createServer` and the transports still share one copy of the core.
//
// Ajv and ajv-formats are compiled in (scripts/bundle-config.mjs says why and how they are still
// audited); every other package import stays an import: the CLI's optional siblings and the schema
// libraries a host brings.
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { BUNDLED_ENTRIES, INLINED_PACKAGES } from './bundle-config.mjs';

const pkg = fileURLToPath(new URL('../packages/palisade-mcp/', import.meta.url));

/** `ajv/dist/2020.js` → `ajv`, `@scope/name/x` → `@scope/name`. */
function packageOf(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** A bare import from our own files is external unless its package is inlined; an inlined package's own imports are bundled with it. */
const externalsButInlined = {
  name: 'externals-but-inlined',
  setup(on) {
    on.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:') || args.importer.includes('/node_modules/')) return undefined;
      return INLINED_PACKAGES.includes(packageOf(args.path))
        ? undefined
        : { path: args.path, external: true };
    });
  },
};

// Chunk names carry a content hash: a stale chunk from an earlier build must not ship.
rmSync(`${pkg}dist/bundle`, { recursive: true, force: true });

await build({
  absWorkingDir: pkg,
  entryPoints: BUNDLED_ENTRIES,
  outdir: 'dist/bundle',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  plugins: [externalsButInlined],
  // Nothing is minified, so a host reading the shipped code reads what tsc wrote; where two modules
  // declare the same name esbuild renames one, and keepNames gives it back its `name`.
  keepNames: true,
  minify: false,
  sourcemap: 'linked',
  // Ajv's and its dependencies' licence comments travel with their code.
  legalComments: 'inline',
  logLevel: 'warning',
});
