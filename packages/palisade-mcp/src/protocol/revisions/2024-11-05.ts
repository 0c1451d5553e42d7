/**
 * MCP 2024-11-05 (schema/2024-11-05/schema.json), served over stdio only: its HTTP transport was
 * HTTP+SSE, which Palisade does not serve (an HTTP client asking for it is countered with the
 * newest revision served there, handshake.ts). Against 2025-03-26 it lacks the `audio` content
 * block, tool `annotations`, the `completions` capability (`completion/complete` itself is
 * defined) and the `message` of `notifications/progress`.
 */

import { RESOURCE_NOT_FOUND } from '../../wire/codes.js';
import { HANDSHAKE_METHODS } from './methods.js';
import { defineProfile } from './profile.js';

export const PROFILE_2024_11_05 = defineProfile({
  revision: '2024-11-05',
  era: 'handshake',
  transports: ['stdio'],
  versionHeader: false,
  methods: HANDSHAKE_METHODS,
  fields: {
    tool: ['name', 'description', 'inputSchema'],
    toolAnnotations: [],
    resource: ['uri', 'name', 'description', 'mimeType', 'size', 'annotations'],
    resourceTemplate: ['uriTemplate', 'name', 'description', 'mimeType', 'annotations'],
    prompt: ['name', 'description', 'arguments'],
    promptArgument: ['name', 'description', 'required'],
    implementation: ['name', 'version'],
    annotations: ['audience', 'priority'],
    resourceContents: ['uri', 'mimeType', 'text', 'blob'],
    progress: ['progressToken', 'progress', 'total'],
  },
  content: {
    text: ['type', 'text', 'annotations'],
    image: ['type', 'data', 'mimeType', 'annotations'],
    resource: ['type', 'resource', 'annotations'],
  },
  capabilities: ['experimental', 'logging', 'prompts', 'resources', 'tools'],
  structuredContent: 'none',
  outputSchema: 'none',
  resourceNotFound: RESOURCE_NOT_FOUND,
});
