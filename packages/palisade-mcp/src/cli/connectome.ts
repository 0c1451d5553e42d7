/**
 * `palisade connectome ...`: the connectome's command lives in the palisade-mcp-connectome
 * package, loaded here on demand by a fixed specifier (as `demo` loads palisade-demo), so the
 * server package carries none of it. Without the package the command is refused by name, one
 * line on stderr with the command that installs it, exit code 1.
 */
import { PalisadeError } from '../errors.js';
import { loadOptionalExport } from './optional-package.js';

/** The package `connectome` loads; fixed here, never derived from input. */
export const CONNECTOME_PACKAGE = 'palisade-mcp-connectome';

const EXIT_REFUSED = 1;

type Connectome = (argv: readonly string[]) => number | Promise<number>;

async function loadConnectome(): Promise<Connectome> {
  const command = await loadOptionalExport(
    // A literal specifier, as the no-eval census requires. The package is optional and built after
    // this one, so its types may be absent when this compiles; its export is checked there.
    // biome-ignore lint/suspicious/noTsIgnore: the error is expected in some builds and not others
    // @ts-ignore: resolved at run time only, when palisade-mcp-connectome is installed
    () => import('palisade-mcp-connectome/cli'),
    {
      packageName: CONNECTOME_PACKAGE,
      exportName: 'connectome',
      exportDescription: 'connectome command',
      code: 'PALISADE_ERR_CLI_CONNECTOME_MISSING',
      notInstalled: `the connectome command is in the package ${CONNECTOME_PACKAGE}, which is not installed; install it beside palisade-mcp (npm install ${CONNECTOME_PACKAGE}), or run npx -p palisade-mcp -p ${CONNECTOME_PACKAGE} palisade connectome ...`,
    },
  );
  return command as Connectome;
}

export async function connectome(argv: readonly string[]): Promise<number> {
  let command: Connectome;
  try {
    command = await loadConnectome();
  } catch (error) {
    if (!(error instanceof PalisadeError)) throw error;
    process.stderr.write(`palisade connectome: ${error.code}: ${error.message}\n`);
    return EXIT_REFUSED;
  }
  return command(argv);
}
