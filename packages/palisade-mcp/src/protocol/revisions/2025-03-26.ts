/**
 * MCP 2025-03-26 (schema/2025-03-26/schema.json), the first Streamable HTTP revision. Against
 * 2025-06-18 it lacks `title` (tools, resources, templates, prompts, prompt arguments,
 * `serverInfo`), every `_meta` but a result's own (tools, resources, templates, prompts, content
 * blocks, resource contents), `outputSchema` and `structuredContent`, the `resource_link` content
 * block and `Annotations.lastModified`. Its HTTP transport has no `MCP-Protocol-Version` header:
 * a request without one is served as 2025-03-26, as later revisions tell servers to assume.
 */

import { RESOURCE_NOT_FOUND } from '../../wire/codes.js';
import { HANDSHAKE_METHODS } from './methods.js';
import { defineProfile } from './profile.js';

export const PROFILE_2025_03_26 = defineProfile({
  revision: '2025-03-26',
  era: 'handshake',
  transports: ['stdio', 'http'],
  versionHeader: false,
  methods: HANDSHAKE_METHODS,
  fields: {
    tool: ['name', 'description', 'inputSchema', 'annotations'],
    toolAnnotations: ['title', 'readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'],
    resource: ['uri', 'name', 'description', 'mimeType', 'size', 'annotations'],
    resourceTemplate: ['uriTemplate', 'name', 'description', 'mimeType', 'annotations'],
    prompt: ['name', 'description', 'arguments'],
    promptArgument: ['name', 'description', 'required'],
    implementation: ['name', 'version'],
    annotations: ['audience', 'priority'],
    resourceContents: ['uri', 'mimeType', 'text', 'blob'],
    progress: ['progressToken', 'progress', 'total', 'message'],
  },
  content: {
    text: ['type', 'text', 'annotations'],
    image: ['type', 'data', 'mimeType', 'annotations'],
    audio: ['type', 'data', 'mimeType', 'annotations'],
    resource: ['type', 'resource', 'annotations'],
  },
  capabilities: ['experimental', 'logging', 'completions', 'prompts', 'resources', 'tools'],
  structuredContent: 'none',
  outputSchema: 'none',
  resourceNotFound: RESOURCE_NOT_FOUND,
});
