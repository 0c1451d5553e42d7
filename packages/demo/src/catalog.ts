/**
 * The demo server's catalog: small, but it exercises every content kind, a resource of each
 * encoding, a template, a prompt with arguments and completion, progress and logging, a tool
 * whose handler throws (an opaque fault) and one that tells the model what it did wrong, tools
 * that ask the client for a completion and the user for an answer, one that announces a list
 * change and one that waits until cancelled. It lives here, outside the server package, which
 * holds no tool.
 */
import { defineTool, type ServerDefinition, ToolError } from 'palisade-mcp';
import { askModel, askUser } from './asking.js';
import { announceToolsChanged, waitUntilCancelled } from './changes.js';

/** A 1×1 transparent PNG. */
const PIXEL_PNG = Uint8Array.from(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    'base64',
  ),
);

/** A 10 ms, 8 kHz, 8-bit mono WAV of silence, built rather than shipped. */
function silentWav(): Uint8Array {
  const samples = 80;
  const wav = Buffer.alloc(44 + samples, 0x80);
  wav.write('RIFF', 0, 'ascii');
  wav.writeUInt32LE(36 + samples, 4);
  wav.write('WAVEfmt ', 8, 'ascii');
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(1, 22);
  wav.writeUInt32LE(8000, 24);
  wav.writeUInt32LE(8000, 28);
  wav.writeUInt16LE(1, 32);
  wav.writeUInt16LE(8, 34);
  wav.write('data', 36, 'ascii');
  wav.writeUInt32LE(samples, 40);
  return wav;
}

const NOTES: Readonly<Record<string, string>> = {
  welcome: 'Palisade refuses every malformed request by name.',
  limits: 'Messages are capped at 1 MiB and 64 levels of nesting.',
};

const README = '# Palisade demo\n\nTools, resources and prompts served by palisade-mcp.\n';

/**
 * The catalog, its `announce_tools_changed` tool telling `announce` (the built server's
 * `notifyListChanged('tools')`); without one, that tool answers a tool error saying so.
 */
export function createDemoCatalog(announce?: () => Promise<void>): ServerDefinition {
  return {
    ...catalog,
    tools: [...(catalog.tools ?? []), askModel, askUser, announceToolsChanged(announce), waitUntilCancelled],
  };
}

const catalog: ServerDefinition = {
  name: 'palisade-demo',
  version: '0.1.0',
  title: 'Palisade demo',
  instructions:
    'A demo catalog: try echo, add, and the notes resources; ask_model and ask_user ask your client, wait can be cancelled.',
  // announce_tools_changed announces it; clients listening hear notifications/tools/list_changed.
  notifications: { toolsListChanged: true },
  tools: [
    defineTool<{ text: string }>({
      name: 'echo',
      title: 'Echo',
      description: 'Returns its text argument unchanged.',
      inputSchema: {
        type: 'object',
        properties: { text: { type: 'string', maxLength: 10_000 } },
        required: ['text'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      handler: ({ text }) => ({ content: [{ type: 'text', text }] }),
    }),
    defineTool<{ a: number; b: number }>({
      name: 'add',
      title: 'Add',
      description: 'Adds two integers and returns the sum as structured content.',
      inputSchema: {
        type: 'object',
        properties: { a: { type: 'integer' }, b: { type: 'integer' } },
        required: ['a', 'b'],
        additionalProperties: false,
      },
      outputSchema: {
        type: 'object',
        properties: { sum: { type: 'integer' } },
        required: ['sum'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true },
      handler: ({ a, b }) => ({ content: [], structuredContent: { sum: a + b } }),
    }),
    defineTool({
      name: 'fail',
      description: 'Always throws, to show that a host fault is answered -32603 and nothing of it leaks.',
      inputSchema: { type: 'object', additionalProperties: false },
      handler: () => {
        throw new Error('the fail tool always fails');
      },
    }),
    defineTool<{ a: number; b: number }>({
      name: 'divide',
      title: 'Divide',
      description:
        'Divides the integer a by the integer b. Dividing by zero is answered with a tool error saying so.',
      inputSchema: {
        type: 'object',
        properties: { a: { type: 'integer' }, b: { type: 'integer' } },
        required: ['a', 'b'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true },
      handler: ({ a, b }) => {
        // A ToolError's message is meant for the model: it comes back as the tool result's text.
        if (b === 0) throw new ToolError('Cannot divide by zero: b must not be 0.');
        return { content: [{ type: 'text', text: String(a / b) }] };
      },
    }),
    defineTool({
      name: 'show_image',
      description: 'Returns a 1×1 PNG image.',
      inputSchema: { type: 'object', additionalProperties: false },
      handler: () => ({ content: [{ type: 'image', data: PIXEL_PNG, mimeType: 'image/png' }] }),
    }),
    defineTool({
      name: 'play_sound',
      description: 'Returns 10 ms of silence as WAV audio.',
      inputSchema: { type: 'object', additionalProperties: false },
      handler: () => ({ content: [{ type: 'audio', data: silentWav(), mimeType: 'audio/wav' }] }),
    }),
    defineTool({
      name: 'link_readme',
      description: 'Returns a link to the demo readme resource.',
      inputSchema: { type: 'object', additionalProperties: false },
      handler: () => ({
        content: [{ type: 'resource_link', uri: 'demo://readme', name: 'readme', mimeType: 'text/markdown' }],
      }),
    }),
    defineTool({
      name: 'embed_readme',
      description: 'Returns the readme embedded, with a text block beside it.',
      inputSchema: { type: 'object', additionalProperties: false },
      handler: () => ({
        content: [
          { type: 'text', text: 'The readme follows.' },
          { type: 'resource', resource: { uri: 'demo://readme', mimeType: 'text/markdown', text: README } },
        ],
      }),
    }),
    defineTool<{ steps: number }>({
      name: 'count',
      description: 'Counts to steps, reporting progress and a log line per step; stops when cancelled.',
      inputSchema: {
        type: 'object',
        properties: { steps: { type: 'integer', minimum: 1, maximum: 10 } },
        required: ['steps'],
        additionalProperties: false,
      },
      handler: async ({ steps }, ctx) => {
        for (let step = 1; step <= steps; step += 1) {
          if (ctx.signal.aborted) break;
          ctx.progress(step, steps, `step ${step}`);
          ctx.log('info', { step });
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        return { content: [{ type: 'text', text: `counted to ${steps}` }] };
      },
    }),
  ],
  resources: [
    {
      uri: 'demo://readme',
      name: 'readme',
      title: 'Demo readme',
      mimeType: 'text/markdown',
      read: () => [{ uri: 'demo://readme', mimeType: 'text/markdown', text: README }],
    },
    {
      uri: 'demo://pixel.png',
      name: 'pixel',
      mimeType: 'image/png',
      read: () => [{ uri: 'demo://pixel.png', mimeType: 'image/png', blob: PIXEL_PNG }],
    },
  ],
  resourceTemplates: [
    {
      uriTemplate: 'demo://notes/{id}',
      name: 'note',
      description: 'A short note by id.',
      mimeType: 'text/plain',
      read: (uri, { id }) => {
        const note = id === undefined ? undefined : NOTES[id];
        return note === undefined ? undefined : [{ uri, mimeType: 'text/plain', text: note }];
      },
      complete: { id: (value) => Object.keys(NOTES).filter((id) => id.startsWith(value)) },
    },
  ],
  prompts: [
    {
      name: 'greet',
      title: 'Greet someone',
      description: 'Writes a greeting in the style asked for.',
      arguments: [
        { name: 'name', description: 'Who to greet', required: true },
        {
          name: 'style',
          description: 'formal or casual',
          complete: (value) => ['formal', 'casual'].filter((style) => style.startsWith(value)),
        },
      ],
      get: ({ name, style }) => ({
        description: 'A greeting',
        messages: [
          {
            role: 'user',
            content: { type: 'text', text: `Write a ${style ?? 'casual'} greeting for ${name}.` },
          },
        ],
      }),
    },
  ],
};

/**
 * The catalog with no server to announce through (its `announce_tools_changed` answers a tool
 * error): `createDemoServer` builds the one the demo serves.
 */
export const demoCatalog: ServerDefinition = createDemoCatalog();
