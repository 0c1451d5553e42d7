// What scripts/bundle.mjs builds, kept apart so tests and the SBOM read the same lists without
// running a build.

/** palisade-mcp's entry points by the bundle file each is served from (dist/bundle/<name>.js). */
export const BUNDLED_ENTRIES = {
  index: 'dist/index.js',
  stdio: 'dist/transports/stdio.js',
  http: 'dist/http/node/index.js',
  fetch: 'dist/http/fetch/index.js',
  wire: 'dist/wire/index.js',
  cli: 'dist/cli/main.js',
};

/**
 * The packages compiled into the bundle, with everything they import: Ajv's hundred-odd CommonJS
 * files were about half of a one-tool server's start-up CPU when loaded one by one. They are
 * development dependencies of palisade-mcp, pinned by the lock file, and count as runtime
 * dependencies everywhere else: the README's table, the SBOM, the audit and the import census.
 */
export const INLINED_PACKAGES = ['ajv', 'ajv-formats'];
