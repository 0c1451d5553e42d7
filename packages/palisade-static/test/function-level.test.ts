import { describe, expect, test } from 'vitest';
import { analyzeScope } from '../src/index.js';
import { edgeList, fixture, listed } from './support.js';

const graph = analyzeScope({ root: fixture('functions'), level: 'function' });
const calls = edgeList(graph).filter((e) => e.includes('-call->'));

describe('the function level', () => {
  test('top-level function declarations, function consts and an anonymous default are nodes', () => {
    expect(graph.nodes.filter((n) => n.kind === 'function').map((n) => n.id)).toEqual([
      'src/a.ts#arrow',
      'src/a.ts#local',
      'src/a.ts#main',
      'src/b.ts#greet',
      'src/b.ts#shout',
      'src/c.ts#default',
      'src/d.ts#helper',
    ]);
  });

  test('a call by identifier is resolved through a named import, a namespace, a default and a star re-export', () => {
    expect(calls).toEqual(
      expect.arrayContaining([
        'src/a.ts#main -call-> src/b.ts#greet',
        'src/a.ts#main -call-> src/b.ts#shout',
        'src/a.ts#main -call-> src/c.ts#default',
        'src/a.ts#main -call-> src/d.ts#helper',
        'src/a.ts#main -call-> src/a.ts#local',
        'src/a.ts#arrow -call-> src/a.ts#main',
        'src/b.ts#shout -call-> src/b.ts#greet',
      ]),
    );
  });

  test('a call in top-level code comes from the module node', () => {
    expect(calls).toContain('src/a.ts -call-> src/a.ts#main');
  });

  test('module import edges stay beside the call edges', () => {
    expect(edgeList(graph)).toContain('src/a.ts -import-> src/barrel.ts');
    expect(edgeList(graph)).toContain('src/barrel.ts -import-> src/d.ts');
  });

  test('a computed call and a call through a local binding are listed, not guessed', () => {
    expect(listed(graph, 'computed-call')).toContainEqual({
      file: 'src/a.ts',
      line: 16,
      reason: 'computed-call',
      detail: 'table[key]',
    });
    expect(listed(graph, 'unresolved-call')).toContainEqual({
      file: 'src/a.ts',
      line: 18,
      reason: 'unresolved-call',
      detail: 'chosen',
    });
  });

  test('a call into a package or a built-in is listed as outside-scope with its callee', () => {
    expect(listed(graph, 'outside-scope')).toContainEqual({
      file: 'src/a.ts',
      line: 15,
      reason: 'outside-scope',
      detail: 'join from node:path',
    });
  });

  test('a method call on a value that is not a namespace import is listed as a computed call', () => {
    expect(listed(graph, 'computed-call').map((i) => i.detail)).toContain('greet().toUpperCase');
  });
});
