/**
 * A real load balancer: nginx, configured by docs/deploy.md's block verbatim, in front of three
 * Palisade processes sharing one PostgreSQL. Where nginx is not installed (it comes from Debian;
 * .ci/run installs it) these tests are NOT RUN, and say so: a skipped test named for it and a
 * warning on the console, never a pass.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type RunningPostgres, startPostgres } from './support/embedded-postgres.js';
import { listen, modern, type ServerProcess, spawnServer, toolText } from './support/fleet.js';
import { findNginx, type RunningNginx, startNginx } from './support/nginx.js';

const binary = findNginx();
const SCHEMA = 'behind_nginx';

if (binary === undefined) {
  console.warn(
    'NOT RUN: nginx is not installed, so the load-balancer tests of palisade-mcp-postgres did not run (apt-get install nginx; .ci/run does)',
  );
  test.skip('NOT RUN: nginx is not installed (the load-balancer tests need Debian nginx; .ci/run installs it)', () => {});
} else {
  let database: RunningPostgres;
  let servers: ServerProcess[] = [];
  let nginx: RunningNginx;

  beforeAll(async () => {
    database = await startPostgres();
    const env = { PG_URL: database.url, PG_SCHEMA: SCHEMA };
    servers = [await spawnServer('A', env)];
    servers.push(...(await Promise.all([spawnServer('B', env), spawnServer('C', env)])));
    nginx = await startNginx(
      binary,
      servers.map((server) => server.port),
    );
  }, 120_000);

  afterAll(async () => {
    await nginx?.stop();
    await Promise.all(servers.map((server) => server.stop()));
    await database?.destroy();
  });

  describe('three Palisade processes behind nginx', () => {
    test('calls through nginx are spread over the processes', async () => {
      const seen = new Set<string>();
      for (let n = 0; n < 9; n += 1)
        seen.add(
          toolText(await modern(nginx.port, 'tools/call', { name: 'whoami', arguments: {} })).split(
            ' ',
          )[0] as string,
        );
      expect(seen.size).toBeGreaterThanOrEqual(2);
    });

    test('a listen stream through nginx hears changes announced on every process, as each is sent', async () => {
      const stream = await listen(nginx.port);
      try {
        for (const server of servers) {
          await modern(server.port, 'tools/call', { name: 'announce', arguments: {} });
          const count = servers.indexOf(server) + 1;
          // Unbuffered: each notification arrives before the next change is made.
          await stream.until(
            () =>
              stream.events.filter((event) => event['method'] === 'notifications/tools/list_changed')
                .length >= count,
          );
        }
      } finally {
        stream.close();
      }
    });

    test("a body past Palisade's bound through nginx gets Palisade's own 413, not nginx's page", async () => {
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { pad: 'x'.repeat(1_100_000) },
      });
      const response = await fetch(`http://127.0.0.1:${nginx.port}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
        },
        body,
      });
      expect(response.status).toBe(413);
      expect(await response.json()).toMatchObject({
        error: { code: -32600, message: expect.stringContaining('1048576') },
      });
    });

    test('a process killed mid-call behind nginx: the retry through nginx succeeds on another, and the call ran to its answer once', async () => {
      const key = `nginx-kill-${Date.now()}`;
      const first = modern(nginx.port, 'tools/call', { name: 'slow', arguments: { key, ms: 10_000 } }).then(
        (reply) => reply.status,
        () => 'cut',
      );
      const admin = new pg.Client(database.url);
      await admin.connect();
      try {
        let label: string | undefined;
        const deadline = Date.now() + 20_000;
        while (label === undefined) {
          label = (
            await admin.query<{ label: string }>(`SELECT label FROM ${SCHEMA}_calls WHERE key = $1`, [key])
          ).rows[0]?.label;
          if (Date.now() > deadline) throw new Error('the call never started');
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        const victim = servers.find((server) => server.label === label) as ServerProcess;
        victim.child.kill('SIGKILL');
        await victim.exited;
        // nginx does not replay a POST a process received: the client is told (502), not answered twice.
        expect(await first).toBe(502);
        const retry = await modern(nginx.port, 'tools/call', { name: 'slow', arguments: { key, ms: 10 } });
        expect(toolText(retry)).toMatch(new RegExp(`^${key} done by [ABC]$`));
        expect(toolText(retry)).not.toContain(`by ${label}`);
        const rows = (
          await admin.query<{ label: string; finished: boolean }>(
            `SELECT label, finished FROM ${SCHEMA}_calls WHERE key = $1`,
            [key],
          )
        ).rows;
        expect(rows.filter((row) => row.finished)).toHaveLength(1);
        expect(rows.find((row) => row.label === label)).toMatchObject({ finished: false });
        servers = servers.filter((server) => server !== victim);
      } finally {
        await admin.end();
      }
    });
  });
}
