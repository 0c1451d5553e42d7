/**
 * MCP 2026-07-28 (schema/2026-07-28/schema.json): stateless, no handshake. It defines every member
 * Palisade can send, so nothing is shaped away; its results gain `resultType`, cache hints and
 * the server's identity in `_meta` instead (core.ts).
 */
import { MODERN_REVISION } from '../../revisions.js';
import { INVALID_PARAMS } from '../../wire/codes.js';
import { CATALOG_METHODS } from './methods.js';
import { defineProfile } from './profile.js';

export const PROFILE_2026_07_28 = defineProfile({
  revision: MODERN_REVISION,
  era: 'stateless',
  transports: ['stdio', 'http'],
  versionHeader: true,
  // The three tasks methods are the tasks extension's (SEP-2663), answered when it is offered.
  methods: [
    ...CATALOG_METHODS,
    'server/discover',
    'subscriptions/listen',
    'tasks/get',
    'tasks/update',
    'tasks/cancel',
  ],
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
  capabilities: ['experimental', 'logging', 'completions', 'prompts', 'resources', 'tools', 'extensions'],
  structuredContent: 'any',
  outputSchema: 'any',
  // RESOURCE_NOT_FOUND is reserved in 2026-07-28: a server must not emit it.
  resourceNotFound: INVALID_PARAMS,
});
