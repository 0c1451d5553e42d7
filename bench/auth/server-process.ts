/**
 * Child-process entry for one auth bench contender: Palisade `serve()` with the bench's `echo`
 * tool, behind `bearer()` (ES256 or RS256 keys, a static JWKS so the key cache is warm from the
 * first request, the verified-token cache on or off) or behind an `authorize` that admits all.
 * argv: the contender's settings as JSON. Answers `cpu` and `close` as bench/http's children do.
 */
// The builds, as bench/http/palisade-server.ts imports them, for the reason it gives.

import { serve } from '../../packages/palisade-mcp/dist/http/node/serve.js';
import { createServer, defineTool } from '../../packages/palisade-mcp/dist/index.js';
import { bearer } from '../../packages/palisade-mcp-auth/dist/index.js';
import { ECHO_DESCRIPTION, ECHO_SCHEMA } from '../http/tools.js';
import { type AuthContender, type FromAuthServer, ISSUER, RESOURCE } from './contenders.js';

const contender = JSON.parse(process.argv[2] ?? '{}') as AuthContender;
const server = createServer({
  name: 'bench',
  version: '1.0.0',
  tools: [
    defineTool<{ text: string }>({
      name: 'echo',
      description: ECHO_DESCRIPTION,
      inputSchema: ECHO_SCHEMA,
      handler: ({ text }) => ({ content: [{ type: 'text', text }] }),
    }),
  ],
});
const hooks =
  contender.jwks === undefined
    ? { authorize: () => ({ ok: true as const }) }
    : bearer({
        resource: RESOURCE,
        issuer: ISSUER,
        jwks: contender.jwks,
        ...(contender.tokenCache === undefined ? {} : { tokenCache: contender.tokenCache }),
      });
let refused = 0;
const serving = await serve(server, {
  ...hooks,
  allowedOrigins: 'any',
  onLog: () => {
    refused++;
  },
});

process.on('message', (message: { type: string }) => {
  if (message.type === 'cpu') {
    const used = process.cpuUsage();
    process.send?.({ type: 'cpu', micros: used.user + used.system } satisfies FromAuthServer);
  } else {
    if (refused > 0) process.stderr.write(`auth bench: ${contender.name} refused ${refused} requests\n`);
    void serving.close().then(() => {
      process.send?.({ type: 'closed' } satisfies FromAuthServer);
      process.disconnect();
    });
  }
});
process.on('disconnect', () => process.exit(0));
process.send?.({ type: 'ready', port: serving.port } satisfies FromAuthServer);
