/**
 * What `npm start` prints is something a newcomer copies: the curl commands in its banner are
 * replayed here, request for request (URL, headers, body), in the order printed, and each must be
 * answered with a result, the last one being the tool call's text.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));

let demo: ChildProcess;
let banner = '';

beforeAll(async () => {
  demo = spawn(process.execPath, [MAIN, '--port', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    demo.stderr?.on('data', (chunk: Buffer) => {
      banner += chunk.toString('utf8');
      if (banner.includes('Ctrl-C stops it.')) resolve();
    });
    demo.once('exit', (code) => reject(new Error(`the demo exited ${code}:\n${banner}`)));
  });
});

afterAll(async () => {
  if (demo.exitCode === null && demo.signalCode === null) {
    demo.kill('SIGTERM');
    await once(demo, 'exit');
  }
});

interface CurlRequest {
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** The banner's curl commands, continuation lines joined, read as the shell reads them. */
function curlCommands(text: string): CurlRequest[] {
  const joined = text.replace(/\\\n\s*/g, '');
  return joined
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('curl '))
    .map((line) => {
      // Single-quoted words and bare words: all the banner uses.
      const words = [...line.matchAll(/'([^']*)'|(\S+)/g)].map((match) => match[1] ?? match[2] ?? '');
      let url = '';
      const headers: Record<string, string> = {};
      let body = '';
      for (let index = 1; index < words.length; index += 1) {
        const word = words[index] ?? '';
        if (word === '-s') continue;
        if (word === '-H') {
          const header = words[++index] ?? '';
          const colon = header.indexOf(':');
          headers[header.slice(0, colon).trim()] = header.slice(colon + 1).trim();
        } else if (word === '-d') {
          body = words[++index] ?? '';
        } else {
          url = word;
        }
      }
      return { url, headers, body };
    });
}

describe('the curl commands npm start prints', () => {
  test('initialize first, then a tools/call carrying the MCP-Protocol-Version header', () => {
    const commands = curlCommands(banner);
    expect(commands.map((command) => (JSON.parse(command.body) as { method: string }).method)).toEqual([
      'initialize',
      'tools/call',
    ]);
    expect(commands[1]?.headers['mcp-protocol-version']).toBe('2025-11-25');
  });

  test('each, sent as printed, is answered with a result, and the tool call with its text', async () => {
    const answers: Array<Record<string, unknown>> = [];
    for (const { url, headers, body } of curlCommands(banner)) {
      const response = await fetch(url, { method: 'POST', headers, body });
      expect(response.status).toBe(200);
      answers.push((await response.json()) as Record<string, unknown>);
    }
    expect(answers.length).toBeGreaterThan(1);
    for (const answer of answers) expect(answer).not.toHaveProperty('error');
    expect(answers.at(-1)).toMatchObject({ result: { content: [{ type: 'text', text: 'hello' }] } });
  });
});
