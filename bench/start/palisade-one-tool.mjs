// A one-tool Palisade server over stdio, as a host writes one: createServer with one JSON-Schema
// tool (the schema the SDK contender gets), then the stdio transport. argv[2], when given, is
// another checkout whose build to load (`npm run bench:start -- --base=DIR`); both are loaded
// through the package's exports map, as a host's import resolves them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ECHO_SCHEMA } from './echo-schema.mjs';

const root = process.argv[2] ?? fileURLToPath(new URL('../../', import.meta.url));
const dir = join(root, 'packages/palisade-mcp');
const { exports } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
const entry = (name) => import(pathToFileURL(join(dir, exports[name].default)).href);
const [{ createServer, defineTool }, stdio] = await Promise.all([entry('.'), entry('./stdio')]);

const server = createServer({
  name: 'one-tool',
  version: '1.0.0',
  tools: [
    defineTool({
      name: 'echo',
      description: 'Returns its text argument unchanged.',
      inputSchema: ECHO_SCHEMA,
      handler: ({ text }) => ({ content: [{ type: 'text', text }] }),
    }),
  ],
});
// serveStdio since the restructure, runStdio before it: a base checkout may have either.
(stdio.serveStdio ?? stdio.runStdio)(server);
