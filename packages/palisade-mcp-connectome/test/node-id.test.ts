import { describe, expect, test } from 'vitest';
import { identifiedNode, nodeId } from '../src/index.js';
import { refusedWith } from './refusal.js';

describe('node ids come from one structural function', () => {
  test('the server node is SERVER/server', () => {
    expect(nodeId('srv', { kind: 'server' })).toBe('srv/server');
  });

  test('a catalog entry is SERVER/KIND/NAME', () => {
    expect(nodeId('srv', { kind: 'tool', name: 'écho' })).toBe('srv/tool/écho');
    expect(nodeId('srv', { kind: 'prompt', name: 'p' })).toBe('srv/prompt/p');
  });

  test('a slash and a percent inside a component are escaped, the percent first', () => {
    expect(nodeId('srv', { kind: 'resource', uri: 'r://a' })).toBe('srv/resource/r:%2F%2Fa');
    expect(nodeId('srv', { kind: 'resource', uri: 'a%2Fb' })).toBe('srv/resource/a%252Fb');
  });

  test('an escape cannot be forged: a literal %2F and a slash give different ids', () => {
    expect(nodeId('srv', { kind: 'tool', name: 'a/b' })).not.toBe(
      nodeId('srv', { kind: 'tool', name: 'a%2Fb' }),
    );
  });

  test('the server name is escaped too', () => {
    expect(nodeId('a/b', { kind: 'server' })).toBe('a%2Fb/server');
  });

  test('a module, a function and a boundary carry their level in the id', () => {
    expect(nodeId('srv', { kind: 'module', module: 'src/tools/echo.ts' })).toBe(
      'srv/module/src%2Ftools%2Fecho.ts',
    );
    expect(nodeId('srv', { kind: 'function', module: 'm.ts', name: 'run' })).toBe('srv/module/m.ts/run');
    expect(nodeId('srv', { kind: 'boundary', source: 'package', name: '@acme/x' })).toBe(
      'srv/boundary/package/@acme%2Fx',
    );
  });

  test('a named Node.js process is SERVER/process/NAME', () => {
    expect(nodeId('srv', { kind: 'process', name: 'indexer-worker' })).toBe('srv/process/indexer-worker');
  });

  test('the id function does not normalise: NFC is the encoder’s business', () => {
    expect(nodeId('srv', { kind: 'tool', name: 'e\u0301' })).toBe('srv/tool/e\u0301');
  });

  test('kind and level follow from the identity', () => {
    expect(identifiedNode('s', { kind: 'function', module: 'm', name: 'f' })).toMatchObject({
      kind: 'module',
      level: 'function',
    });
    expect(identifiedNode('s', { kind: 'boundary', source: 'package', name: 'p' })).toMatchObject({
      kind: 'module',
      level: 'boundary',
    });
    expect(identifiedNode('s', { kind: 'process', name: 'w' })).toMatchObject({
      kind: 'process',
      level: 'server',
    });
  });

  test('an empty component is refused by name', () => {
    refusedWith(() => nodeId('srv', { kind: 'tool', name: '' }), 'PALISADE_ERR_CONNECTOME_INVALID');
    refusedWith(() => nodeId('', { kind: 'server' }), 'PALISADE_ERR_CONNECTOME_INVALID');
  });

  test('an identity the vocabulary does not name is refused', () => {
    refusedWith(
      () => nodeId('srv', { kind: 'socket', name: 'x' } as never),
      'PALISADE_ERR_CONNECTOME_INVALID',
    );
  });

  test('a component holding a lone surrogate is refused', () => {
    refusedWith(
      () => nodeId('srv', { kind: 'tool', name: '\uD800' }),
      'PALISADE_ERR_CONNECTOME_LONE_SURROGATE',
    );
  });
});
