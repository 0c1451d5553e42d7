/**
 * The filesystem example, run as its README says (`npx tsx examples/filesystem/server.ts DIR`) and
 * driven by the official SDK's stdio client: it lists and reads inside the served directory, and
 * every way out (`..`, an absolute path, a symbolic link pointing outside) is the same refusal.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const SERVER = fileURLToPath(new URL('./server.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const scratch = mkdtempSync(join(tmpdir(), 'palisade-fs-example-'));
const served = join(scratch, 'served');
let client: Client;

beforeAll(async () => {
  mkdirSync(join(served, 'notes'), { recursive: true });
  writeFileSync(join(served, 'hello.txt'), 'hello from inside\n');
  writeFileSync(join(served, 'notes', 'todo.txt'), 'write tests\n');
  writeFileSync(join(scratch, 'secret.txt'), 'outside the served directory\n');
  symlinkSync(join(scratch, 'secret.txt'), join(served, 'link-out.txt'));
  symlinkSync(scratch, join(served, 'dir-out'));
  client = new Client({ name: 'example-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', SERVER, served],
      cwd: ROOT,
    }),
  );
});

afterAll(async () => {
  await client.close();
  rmSync(scratch, { recursive: true, force: true });
});

async function call(name: string, path: string): Promise<{ text: string; isError: boolean }> {
  const result = (await client.callTool({ name, arguments: { path } })) as {
    content: Array<{ type: string; text: string }>;
    isError?: boolean;
  };
  return { text: result.content[0]?.text ?? '', isError: result.isError === true };
}

describe('the filesystem example', () => {
  test('it lists the served directory', async () => {
    expect(await call('list_directory', '.')).toEqual({
      text: 'dir  notes\nfile hello.txt\nlink dir-out\nlink link-out.txt',
      isError: false,
    });
  });

  test('it reads a file inside the served directory', async () => {
    expect(await call('read_text_file', 'notes/todo.txt')).toEqual({ text: 'write tests\n', isError: false });
  });

  test.each([
    ['a path climbing out with ..', '../secret.txt'],
    ['an absolute path', join(scratch, 'secret.txt')],
    ['a symbolic link to a file outside', 'link-out.txt'],
    ['a path through a symbolic link to a directory outside', 'dir-out/secret.txt'],
    ['a path that does not exist', 'missing.txt'],
  ])('%s is refused without reading it', async (_what, path) => {
    expect(await call('read_text_file', path)).toEqual({
      text: 'no such file or directory inside the served directory',
      isError: true,
    });
  });

  test('arguments the schema refuses never reach the handler', async () => {
    const result = (await client.callTool({ name: 'read_text_file', arguments: { path: '' } })) as {
      isError?: boolean;
    };
    expect(result.isError).toBe(true);
  });
});
