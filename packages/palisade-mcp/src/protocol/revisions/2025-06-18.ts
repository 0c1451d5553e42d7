/**
 * MCP 2025-06-18 (schema/2025-06-18/schema.json). Against 2025-11-25 it lacks `icons` (on tools,
 * resources, templates, prompts, `resource_link` and `serverInfo`), the `Implementation` members
 * `description` and `websiteUrl`, and the `tasks` capability.
 */

import { RESOURCE_NOT_FOUND } from '../../wire/codes.js';
import { HANDSHAKE_METHODS } from './methods.js';
import { defineProfile } from './profile.js';

export const PROFILE_2025_06_18 = defineProfile({
  revision: '2025-06-18',
  era: 'handshake',
  transports: ['stdio', 'http'],
  versionHeader: true,
  methods: HANDSHAKE_METHODS,
  fields: {
    tool: ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations', '_meta'],
    toolAnnotations: ['title', 'readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'],
    resource: ['uri', 'name', 'title', 'description', 'mimeType', 'size', 'annotations', '_meta'],
    resourceTemplate: ['uriTemplate', 'name', 'title', 'description', 'mimeType', 'annotations', '_meta'],
    prompt: ['name', 'title', 'description', 'arguments', '_meta'],
    promptArgument: ['name', 'title', 'description', 'required'],
    implementation: ['name', 'title', 'version'],
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
      'annotations',
      '_meta',
    ],
    resource: ['type', 'resource', 'annotations', '_meta'],
  },
  capabilities: ['experimental', 'logging', 'completions', 'prompts', 'resources', 'tools'],
  structuredContent: 'object',
  outputSchema: 'object-root',
  resourceNotFound: RESOURCE_NOT_FOUND,
});
