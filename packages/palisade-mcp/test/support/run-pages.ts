/**
 * The pages whose code blocks readme-blocks.test.ts runs, in order: the README, where every block
 * is marked, then the docs pages the README hands its longer examples to, where only the marked
 * blocks run (the rest are fragments, such as a Next.js route file). Later pages may import what
 * earlier ones wrote (`./greet.ts`). package-readmes.test.ts reads the same list: a package
 * README's block must be a copy of one that runs.
 */
export const RUN_PAGES = [
  { page: 'README.md', everyBlockMarked: true },
  { page: 'docs/mounts.md', everyBlockMarked: false },
  { page: 'docs/http.md', everyBlockMarked: false },
  { page: 'docs/telemetry.md', everyBlockMarked: false },
  { page: 'docs/cli.md', everyBlockMarked: false },
] as const;
