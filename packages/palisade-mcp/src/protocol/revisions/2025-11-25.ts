/**
 * MCP 2025-11-25 (schema/2025-11-25/schema.json), the newest handshake revision. It defines every
 * member Palisade can send; against 2026-07-28 it narrows `structuredContent` to an object and
 * `outputSchema` to an object root, and defines no `extensions` capability.
 */
import { LEGACY_REVISION } from '../../revisions.js';
import { RESOURCE_NOT_FOUND } from '../../wire/codes.js';
import { HANDSHAKE_METHODS } from './methods.js';
import { defineProfile } from './profile.js';

export const PROFILE_2025_11_25 = defineProfile({
  revision: LEGACY_REVISION,
  era: 'handshake',
  transports: ['stdio', 'http'],
  versionHeader: true,
  // Its tasks/* belong to the tasks design Palisade does not implement (docs/will-not-implement.md).
  methods: HANDSHAKE_METHODS,
  fields: {
    tool: ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations', 'icons', '_meta'],
    toolAnnotations: ['title', 'readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'],
    resource: ['uri', 'name', 'title', 'description', 'mimeType', 'size', 'annotations', 'icons', '_meta'],
    resourceTemplate: [
      'uriTemplate',
      'name',
      'title',
      'description',
      'mimeType',
      'annotations',
      'icons',
      '_meta',
    ],
    prompt: ['name', 'title', 'description', 'arguments', 'icons', '_meta'],
    promptArgument: ['name', 'title', 'description', 'required'],
    implementation: ['name', 'title', 'version', 'description', 'icons', 'websiteUrl'],
    annotations: ['audience', 'priority', 'lastModified'],
    resourceContents: ['uri', 'mimeType', 'text', 'blob', '_meta'],
    progress: ['progressToken', 'progress', 'total', 'message'],
  },
  content: {
    text: ['type', 'text', 'annotations', '_meta'],
    image: ['type', 'data', 'mimeType', 'annotations', '_meta'],
    audio: ['type', 'data', 'mimeType', 'annotations', '_meta'],
    resource_link: [
      'type',
      'uri',
      'name',
      'title',
      'description',
      'mimeType',
      'size',
      'icons',
      'annotations',
      '_meta',
    ],
    resource: ['type', 'resource', 'annotations', '_meta'],
  },
  capabilities: ['experimental', 'logging', 'completions', 'prompts', 'resources', 'tools', 'tasks'],
  structuredContent: 'object',
  outputSchema: 'object-root',
  resourceNotFound: RESOURCE_NOT_FOUND,
});
