/**
 * A prompt's `get` is typed from its declared arguments, a template's `read` from its URI
 * template's variables: checked by `tsc -p tsconfig.json` (each `@ts-expect-error` must find its
 * error), and served through the real server to show the types describe what arrives.
 */
import { describe, expect, expectTypeOf, test } from 'vitest';
import {
  createServer,
  definePrompt,
  defineResourceTemplate,
  type UriTemplateVariables,
} from '../../src/index.js';
import { serveInProcess } from '../support/in-process.js';
import { modern } from '../support/stdio-peer.js';

const review = definePrompt({
  name: 'review',
  arguments: [{ name: 'code', required: true }, { name: 'style' }],
  get: (args) => {
    expectTypeOf(args).toEqualTypeOf<{ readonly code: string } & { readonly style?: string }>();
    // @ts-expect-error `language` is not a declared argument
    void args.language;
    const text = `review ${args.code} in ${args.style ?? 'any'} style`;
    return { messages: [{ role: 'user', content: { type: 'text', text } }] };
  },
});

const file = defineResourceTemplate({
  uriTemplate: 'file:///{+path}',
  name: 'file',
  read: (uri, variables) => {
    expectTypeOf(variables).toEqualTypeOf<Readonly<Record<'path', string>>>();
    // @ts-expect-error `name` is not a variable of the template
    void variables.name;
    return [{ uri, text: `contents of ${variables.path}` }];
  },
  complete: { path: () => ['a.txt'] },
});

describe('typed prompts and resource templates', () => {
  test('a completer for a name that is not a variable does not compile (nor construct)', () => {
    const wrong = defineResourceTemplate({
      uriTemplate: 'file:///{+path}',
      name: 'file',
      read: () => [],
      // @ts-expect-error `name` is not a variable of the template, so it cannot be completed
      complete: { name: () => [] },
    });
    expect(() => createServer({ name: 's', version: '1', resourceTemplates: [wrong] })).toThrow(/"name"/);
  });

  test('the variables of a URI template are read from its literal', () => {
    expectTypeOf<UriTemplateVariables<'db://{table}/{+rest}'>>().toEqualTypeOf<'table' | 'rest'>();
    expectTypeOf<UriTemplateVariables<'plain://x'>>().toEqualTypeOf<never>();
  });

  test('a typed prompt receives its declared arguments through prompts/get', async () => {
    const peer = serveInProcess(createServer({ name: 's', version: '1', prompts: [review] }));
    const got = await peer.request(modern(1, 'prompts/get', { name: 'review', arguments: { code: 'x()' } }));
    await peer.close();
    expect(got['result']).toMatchObject({
      messages: [{ role: 'user', content: { type: 'text', text: 'review x() in any style' } }],
    });
  });

  test('a typed template receives its variables through resources/read', async () => {
    const peer = serveInProcess(createServer({ name: 's', version: '1', resourceTemplates: [file] }));
    const read = await peer.request(modern(1, 'resources/read', { uri: 'file:///docs/a.txt' }));
    await peer.close();
    expect(read['result']).toMatchObject({
      contents: [{ uri: 'file:///docs/a.txt', text: 'contents of docs/a.txt' }],
    });
  });
});
