/**
 * The CLI's optional packages (`palisade-mcp-connectome` for `connectome`, `palisade-demo` for
 * `demo`) are loaded on demand. Each caller writes its literal `import()` (the no-eval census
 * admits literal specifiers only) and hands it here, where the one failure that means "not
 * installed" is told from every other and the export the command needs is checked.
 */
import { PalisadeError, type PalisadeErrorCode } from '../errors.js';

export interface OptionalExport {
  /** The package the caller's `import()` names. */
  readonly packageName: string;
  /** The export the command calls, and how a refusal names it ("connectome command"). */
  readonly exportName: string;
  readonly exportDescription: string;
  /** The code of both refusals: the package is absent, or exports no such function. */
  readonly code: PalisadeErrorCode;
  /** The message when the package is not installed, saying how to get it. */
  readonly notInstalled: string;
}

/**
 * The function `wanted.exportName` of the package `load` imports. A package that is not
 * installed, or installed without that export, is refused with `wanted.code`; any other failure
 * of the import (a broken install) is thrown as itself.
 */
export async function loadOptionalExport(
  load: () => Promise<unknown>,
  wanted: OptionalExport,
): Promise<unknown> {
  let loaded: unknown;
  try {
    loaded = await load();
  } catch (error) {
    if (isMissingPackage(error, wanted.packageName))
      throw new PalisadeError(wanted.code, wanted.notInstalled);
    throw error;
  }
  const found = (loaded as Record<string, unknown> | null)?.[wanted.exportName];
  if (typeof found !== 'function') {
    throw new PalisadeError(
      wanted.code,
      `the installed ${wanted.packageName} exports no ${wanted.exportDescription}; install a version that does`,
    );
  }
  return found;
}

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
