import { describe, expect, test } from 'vitest';
import { catalogNames, createServer, defineTool, PalisadeError } from '../../src/index.js';

const tool = (name: string) =>
  defineTool({ name, inputSchema: { type: 'object' }, handler: () => ({ content: [] }) });

describe('catalogNames: what a server declares, by name', () => {
  test('each kind is listed in the order its list method gives it, and nothing of a handler is there', () => {
    const server = createServer({
      name: 's',
      version: '1',
      tools: [tool('zeta'), tool('alpha')],
      resources: [
        { uri: 'file:///b', name: 'b', read: () => [] },
        { uri: 'file:///a', name: 'a', read: () => [] },
      ],
      resourceTemplates: [{ uriTemplate: 'file:///t/{id}', name: 't', read: () => [] }],
      prompts: [{ name: 'ask', get: () => ({ messages: [] }) }],
    });
    expect(catalogNames(server)).toEqual({
      tools: ['alpha', 'zeta'],
      resources: ['file:///a', 'file:///b'],
      resourceTemplates: ['file:///t/{id}'],
      prompts: ['ask'],
    });
  });

  test('the answer is frozen, lists included', () => {
    const names = catalogNames(createServer({ name: 's', version: '1', tools: [tool('a')] }));
    expect(Object.isFrozen(names)).toBe(true);
    expect(Object.isFrozen(names.tools)).toBe(true);
    expect(names.resources).toEqual([]);
  });

  test('a value createServer did not return is refused by name', () => {
    for (const value of [
      undefined,
      {},
      { info: { name: 'x' } },
      { catalog: {} },
      { info: {}, catalog: {} },
    ]) {
      let caught: unknown;
      try {
        catalogNames(value as never);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(PalisadeError);
      expect(caught).toMatchObject({
        code: 'PALISADE_ERR_INVALID_ARGUMENT',
        message: 'catalogNames needs a server createServer returned',
      });
    }
  });
});
