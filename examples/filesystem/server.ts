/**
 * A read-only filesystem server, sandboxed to one directory, over stdio.
 *
 *   npx tsx examples/filesystem/server.ts DIRECTORY
 *
 * Two tools, `list_directory` and `read_text_file`, each taking a path relative to DIRECTORY.
 * Palisade checks every call against the tools' schemas before this code runs; what stays the
 * host's job is the one thing only the host can know: whether a path, once every symbolic link on
 * the way is followed, is still inside the served directory. `realpath` answers that, so `..`,
 * an absolute path and a link pointing outside are all the same refusal.
 */
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { createServer, defineTool } from 'palisade-mcp';
import { serveStdio } from 'palisade-mcp/stdio';
import { z } from 'zod';

const READ_LIMIT_BYTES = 262_144;

const directory = process.argv[2];
if (directory === undefined) {
  process.stderr.write('usage: filesystem DIRECTORY\n');
  process.exit(2);
}
const root = await realpath(directory);

/** The real path of `path` inside the served directory, or undefined when it leads anywhere else. */
async function inside(path: string): Promise<string | undefined> {
  if (isAbsolute(path)) return undefined;
  let real: string;
  try {
    real = await realpath(resolve(root, path));
  } catch {
    return undefined; // missing, or unreadable: the same answer as outside, so nothing is probed
  }
  const within = relative(root, real);
  return within === '' || (within !== '..' && !within.startsWith(`..${sep}`) && !isAbsolute(within))
    ? real
    : undefined;
}

const refusal = (text: string) => ({ content: [{ type: 'text' as const, text }], isError: true });
const NOT_HERE = 'no such file or directory inside the served directory';

const server = createServer({
  name: 'filesystem',
  version: '1.0.0',
  instructions: 'Read-only access to one directory. Paths are relative to it.',
  tools: [
    defineTool({
      name: 'list_directory',
      description: 'List the entries of a directory, relative to the served directory ("." for its root).',
      inputSchema: z.strictObject({ path: z.string().min(1).max(4_096) }),
      annotations: { readOnlyHint: true },
      handler: async ({ path }) => {
        const real = await inside(path);
        if (real === undefined || !(await stat(real)).isDirectory()) return refusal(NOT_HERE);
        const entries = await readdir(real, { withFileTypes: true });
        const lines = entries
          .map(
            (entry) =>
              `${entry.isSymbolicLink() ? 'link' : entry.isDirectory() ? 'dir ' : 'file'} ${entry.name}`,
          )
          .sort();
        return { content: [{ type: 'text', text: lines.join('\n') }] };
      },
    }),
    defineTool({
      name: 'read_text_file',
      description: `Read a UTF-8 text file of at most ${READ_LIMIT_BYTES} bytes, relative to the served directory.`,
      inputSchema: z.strictObject({ path: z.string().min(1).max(4_096) }),
      annotations: { readOnlyHint: true },
      handler: async ({ path }) => {
        const real = await inside(path);
        if (real === undefined) return refusal(NOT_HERE);
        const info = await stat(real);
        if (!info.isFile()) return refusal(NOT_HERE);
        if (info.size > READ_LIMIT_BYTES) return refusal(`the file is over ${READ_LIMIT_BYTES} bytes`);
        return { content: [{ type: 'text', text: await readFile(real, 'utf8') }] };
      },
    }),
  ],
});

serveStdio(server);
