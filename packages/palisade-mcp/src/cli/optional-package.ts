/**
 * The CLI's optional packages (`palisade-mcp-connectome` for `connectome`, `palisade-demo` for
 * `demo`) are loaded on demand by a literal `import()` at each use (the no-eval
 * census admits literal specifiers only), so this file cannot do the loading; it tells the one
 * failure that means "not installed" from every other.
 */

/**
 * Whether `error`, thrown by `import(name)`, is Node's report that the package `name` itself cannot
 * be resolved. A module missing inside an installed package is a broken install, not an absent
 * one, and is reported as itself rather than with the advice to install what is already there.
 */
export function isMissingPackage(error: unknown, name: string): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const message = error instanceof Error ? error.message : '';
  return code === 'ERR_MODULE_NOT_FOUND' && message.includes(`'${name}'`);
}
