/** Types of groups.mjs, for the TypeScript that imports it (run.ts, the census test). */
export interface Group {
  readonly mutate: readonly string[];
  readonly tests: readonly string[];
  readonly coverageAnalysis: 'perTest' | 'off';
}

export declare const groups: Readonly<Record<string, Group>>;

export declare const families: Readonly<Record<string, readonly string[]>>;

export declare function selectedGroup(): Group & { readonly name: string };
