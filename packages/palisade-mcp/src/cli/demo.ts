/**
 * `palisade demo`: the demo catalog served over HTTP or stdio, to try a client against. The server
 * package holds no catalog (test/census/no-own-catalog.test.ts), so the catalog and the function
 * serving it live in the `palisade-demo` package, loaded here on demand by a fixed specifier, as
 * `connectome declared --static` loads its analyser; its absence is refused by name with the
 * command that runs the demo without installing anything.
 */
import { parseArgs } from 'node:util';
import { isEveryInterface } from '../http/node/serve-url.js';
import { loadOptionalExport } from './optional-package.js';

/** The package `demo` loads; fixed here, never derived from input. */
export const DEMO_PACKAGE = 'palisade-demo';

const EXIT_OK = 0;
const EXIT_REFUSED = 1;
const EXIT_USAGE = 2;

export const DEMO_USAGE = `usage: palisade demo [--stdio] [--port N] [--host H] [--allowed-origin O]... [--allowed-host NAME]...

Serves the demo catalog (every content kind, a resource template, a prompt, progress, logging and
its own connectome:// resources), to point an MCP client at. It lives in the palisade-demo package,
loaded on demand: install it beside palisade-mcp, or run without installing:
  npx -p palisade-mcp -p palisade-demo palisade demo

  (default)             stateless Streamable HTTP (HTTP/1.1 and HTTP/2) on http://127.0.0.1:3000/mcp;
                        once listening, one line on stderr gives the URL:
                          palisade demo: serving MCP (Streamable HTTP, stateless) at URL
  --port N              the port to bind, 0 to 65535 (0 picks a free one; default 3000)
  --host H              the address to bind (default 127.0.0.1); one that is not loopback needs
                        --allowed-host, since only listed Host names are then served
  --allowed-origin O    a browser origin allowed to call, e.g. http://localhost:5173 (repeatable;
                        default none: only requests without an Origin header are served)
  --allowed-host NAME   a Host name served (repeatable; default localhost, 127.0.0.1, ::1)
  --stdio               serve over stdin/stdout instead (newline-delimited JSON-RPC); stdout then
                        carries protocol messages only, and the demo exits when stdin ends
  -h, --help            print this help

Every caller that reaches the port is admitted: the demo has no authorize check. Diagnostics go
to stderr. Ctrl-C (SIGINT) or SIGTERM stops it.

Exit codes: 0 served and stopped (by a signal, or stdin ending with --stdio);
1 could not serve, one line on stderr naming why (PALISADE_ERR_CLI_DEMO_MISSING when palisade-demo
is not installed, a refused option's code, or the address in use); 2 usage error.
`;

type StartDemo = (
  options: Record<string, unknown>,
) => Promise<{ transport: 'http'; url: string; close(): Promise<void> } | { transport: 'stdio' }>;

async function loadDemo(): Promise<StartDemo> {
  const startDemo = await loadOptionalExport(
    // A literal specifier, as the no-eval census requires. The package is optional and built after
    // this one, so its types may be absent when this compiles; its export is checked there.
    // biome-ignore lint/suspicious/noTsIgnore: the error is expected in some builds and not others
    // @ts-ignore: resolved at run time only, when palisade-demo is installed
    () => import('palisade-demo'),
    {
      packageName: DEMO_PACKAGE,
      exportName: 'startDemo',
      exportDescription: 'startDemo function',
      code: 'PALISADE_ERR_CLI_DEMO_MISSING',
      notInstalled: `the demo catalog is in the package ${DEMO_PACKAGE}, which is not installed; run npx -p palisade-mcp -p ${DEMO_PACKAGE} palisade demo, or install it beside palisade-mcp (npm install ${DEMO_PACKAGE})`,
    },
  );
  return startDemo as StartDemo;
}

interface DemoArgs {
  readonly stdio: boolean;
  readonly options: Record<string, unknown>;
}

/** The flags as startDemo's options, or the usage error's message. */
function readArgs(argv: readonly string[]): DemoArgs | { readonly help: true } | string {
  let values: Record<string, string | boolean | string[] | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        stdio: { type: 'boolean' },
        port: { type: 'string' },
        host: { type: 'string' },
        'allowed-origin': { type: 'string', multiple: true },
        'allowed-host': { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: false,
      strict: true,
    }));
  } catch (error) {
    return (error as Error).message;
  }
  if (values['help'] === true) return { help: true };
  const port = values['port'] as string | undefined;
  if (port !== undefined && (!/^[0-9]{1,5}$/.test(port) || Number(port) > 65_535)) {
    return `--port must be an integer from 0 to 65535, got ${JSON.stringify(port)}`;
  }
  const http = {
    port: port === undefined ? undefined : Number(port),
    host: values['host'],
    allowedOrigins: values['allowed-origin'],
    allowedHosts: values['allowed-host'],
  };
  const stdio = values['stdio'] === true;
  const given = Object.entries(http).filter(([, value]) => value !== undefined);
  if (stdio && given.length > 0) {
    // Ignoring them would let the user believe a port is open.
    const flags = ['--port', '--host', '--allowed-origin', '--allowed-host'].filter(
      (flag) => values[flag.slice(2)] !== undefined,
    );
    return `${flags.join(', ')} ${flags.length === 1 ? 'applies' : 'apply'} to HTTP only, not with --stdio`;
  }
  return { stdio, options: stdio ? { stdio: true } : Object.fromEntries(given) };
}

/**
 * Runs `palisade demo ...` with the arguments after `demo`. Resolves once the demo serves (the
 * listening port or stdin then keeps the process alive) or could not start.
 */
export async function demo(argv: readonly string[]): Promise<number> {
  const args = readArgs(argv);
  if (typeof args === 'string') {
    process.stderr.write(`palisade demo: ${args}\n\n${DEMO_USAGE}`);
    return EXIT_USAGE;
  }
  if ('help' in args) {
    process.stdout.write(DEMO_USAGE);
    return EXIT_OK;
  }
  let running: Awaited<ReturnType<StartDemo>>;
  try {
    const startDemo = await loadDemo();
    running = await startDemo(args.options);
  } catch (error) {
    return cannotServe(error, args.options['port']);
  }
  if (running.transport === 'stdio') {
    process.stderr.write('palisade demo: serving MCP over stdio; the demo exits when stdin ends\n');
    return EXIT_OK;
  }
  const { url, close } = running;
  // Registered before the URL is printed: a supervisor may signal as soon as it reads it.
  const stop = (): void => {
    void close().then(() => process.exit(EXIT_OK));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const host = args.options['host'];
  const everywhere =
    typeof host === 'string' && isEveryInterface(host)
      ? `  Bound to ${host}: listening on every interface of this machine.\n`
      : '';
  process.stderr.write(
    `palisade demo: serving MCP (Streamable HTTP, stateless) at ${url}\n` +
      everywhere +
      `  Connect an MCP client to that URL; Ctrl-C stops it.\n`,
  );
  return EXIT_OK;
}

function cannotServe(error: unknown, port: unknown): number {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  const reason =
    code === 'EADDRINUSE'
      ? `EADDRINUSE: port ${String(port ?? 3000)} is in use; pass --port with another one (0 picks a free port)`
      : typeof code === 'string'
        ? `${code}: ${message}`
        : message;
  process.stderr.write(`palisade demo: cannot serve: ${reason.replace(/[\r\n]+/g, ' ')}\n`);
  return EXIT_REFUSED;
}
