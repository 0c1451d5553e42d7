// Types for bundle-config.mjs, which plain `node` runs in the build before anything is compiled.
export declare const BUNDLED_ENTRIES: Readonly<Record<string, string>>;
export declare const INLINED_PACKAGES: readonly string[];
