/**
 * Each revision's table (src/protocol/revisions/) against the schema it was read from
 * (test/fixtures/spec/schema/): the members each object may carry are exactly the schema's, bar
 * the ones Palisade never sends; the content blocks, capabilities and methods likewise. A table
 * that drifted from its schema, or a schema updated without its table, fails here by name.
 */
import { describe, expect, test } from 'vitest';
import { profileOf, type RevisionFields } from '../../src/protocol/revisions/index.js';
import {
  clientRequestMethods,
  contentDefinitions,
  definition,
  propertyNames,
  propertyOf,
  SCHEMA_REVISIONS,
  type SchemaRevision,
} from '../support/spec-schemas.js';

/** Members a schema defines that Palisade never sends, with the reason. */
const NEVER_SENT: Readonly<Partial<Record<keyof RevisionFields, readonly string[]>>> = {
  // 2025-11-25's task design is not implemented (docs/will-not-implement.md row 22).
  tool: ['execution'],
  // Palisade sends no `_meta` with a progress notification.
  progress: ['_meta'],
};

const sorted = (members: readonly string[]): string[] => [...members].sort();

function defined(revision: SchemaRevision, key: keyof RevisionFields): string[] {
  const props = (name: string) => propertyNames(revision, definition(revision, name));
  switch (key) {
    case 'tool':
      return props('Tool');
    case 'toolAnnotations':
      return props('ToolAnnotations');
    case 'resource':
      return props('Resource');
    case 'resourceTemplate':
      return props('ResourceTemplate');
    case 'prompt':
      return props('Prompt');
    case 'promptArgument':
      return props('PromptArgument');
    case 'implementation':
      return props('Implementation');
    case 'annotations':
      // 2024-11-05 has no `Annotations`: its blocks carry an inline object of the same name.
      return definition(revision, 'Annotations') === undefined
        ? propertyNames(revision, propertyOf(revision, definition(revision, 'TextContent'), 'annotations'))
        : props('Annotations');
    case 'resourceContents':
      return [...new Set([...props('TextResourceContents'), ...props('BlobResourceContents')])].sort();
    case 'progress':
      return propertyNames(
        revision,
        propertyOf(revision, definition(revision, 'ProgressNotification'), 'params'),
      );
  }
}

/** Methods a schema defines that Palisade does not answer on that revision, with the reason. */
const NOT_ANSWERED: Readonly<Record<SchemaRevision, readonly string[]>> = {
  // 2026-07-28 has no initialize; its three tasks methods are the extension's, not the schema's.
  '2026-07-28': [],
  // initialize is answered apart from the table; tasks/* are the task design Palisade does not implement.
  '2025-11-25': ['initialize', 'tasks/cancel', 'tasks/get', 'tasks/list', 'tasks/result'],
  '2025-06-18': ['initialize'],
  '2025-03-26': ['initialize'],
  '2024-11-05': ['initialize'],
};
const EXTENSION_METHODS: Readonly<Record<SchemaRevision, readonly string[]>> = {
  '2026-07-28': ['tasks/cancel', 'tasks/get', 'tasks/update'],
  '2025-11-25': [],
  '2025-06-18': [],
  '2025-03-26': [],
  '2024-11-05': [],
};

describe.each(SCHEMA_REVISIONS)('the %s table', (revision) => {
  const profile = profileOf(revision);

  test.each(Object.keys(profile.fields) as (keyof RevisionFields)[])(
    'its %s members are the schema’s',
    (key) => {
      const expected = defined(revision, key).filter((member) => !(NEVER_SENT[key] ?? []).includes(member));
      expect(sorted(profile.fields[key])).toEqual(expected);
    },
  );

  test('its content blocks are the schema’s, each with the schema’s members', () => {
    const blocks = contentDefinitions(revision);
    expect(sorted([...profile.content.keys()])).toEqual(sorted([...blocks.keys()]));
    for (const [type, name] of blocks) {
      expect({ type, members: sorted(profile.content.get(type) ?? []) }).toEqual({
        type,
        members: propertyNames(revision, definition(revision, name)),
      });
    }
  });

  test('its capabilities are the top-level keys of the schema’s ServerCapabilities', () => {
    expect(sorted([...profile.capabilities])).toEqual(
      propertyNames(revision, definition(revision, 'ServerCapabilities')),
    );
  });

  test('its methods are the schema’s client requests, bar those not answered, plus its extension’s', () => {
    const expected = clientRequestMethods(revision)
      .filter((method) => !NOT_ANSWERED[revision].includes(method))
      .concat(EXTENSION_METHODS[revision]);
    expect(sorted([...profile.methods])).toEqual(sorted(expected));
  });

  test('its structuredContent and outputSchema rules are the schema’s', () => {
    const structured = propertyOf(revision, definition(revision, 'CallToolResult'), 'structuredContent');
    expect(profile.structuredContent).toBe(
      structured === undefined ? 'none' : structured['type'] === 'object' ? 'object' : 'any',
    );
    const output = propertyOf(revision, definition(revision, 'Tool'), 'outputSchema');
    const root = output === undefined ? undefined : propertyOf(revision, output, 'type');
    expect(profile.outputSchema).toBe(
      output === undefined ? 'none' : root?.['const'] === 'object' ? 'object-root' : 'any',
    );
  });
});

describe('what the tables say together', () => {
  test('only 2026-07-28 and 2025-11-25 define everything Palisade can send, so only they are left unshaped', () => {
    expect(SCHEMA_REVISIONS.filter((revision) => !profileOf(revision).narrows)).toEqual([
      '2026-07-28',
      '2025-11-25',
    ]);
  });

  test('2024-11-05 is served over stdio alone', () => {
    expect(SCHEMA_REVISIONS.filter((revision) => !profileOf(revision).transports.includes('http'))).toEqual([
      '2024-11-05',
    ]);
  });

  test('the version header exists from 2025-06-18 on', () => {
    expect(SCHEMA_REVISIONS.filter((revision) => profileOf(revision).versionHeader)).toEqual([
      '2026-07-28',
      '2025-11-25',
      '2025-06-18',
    ]);
  });
});
