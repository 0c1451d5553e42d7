/**
 * The command's optional package (`palisade-mcp-static` for `connectome declared --static`) is
 * loaded on demand by a literal `import()` where it is used (the no-eval census admits literal
 * specifiers only), so this file cannot do the loading; it tells the one failure that means "not
 * installed" from every other. The same test as the `palisade` command's own (palisade-mcp's
 * cli/optional-package.ts), kept here so this package reaches into no file of that one.
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
