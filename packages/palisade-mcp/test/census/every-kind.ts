/**
 * A server with one of every catalog kind: a tool, a resource, a resource template, a prompt, and
 * completers on both a template variable and a prompt argument. The censuses that drive a server
 * use it so that every capability the package can advertise is advertised.
 */
import { defineTool, type ServerDefinition } from '../../src/index.js';

export const EVERY_KIND: ServerDefinition = {
  name: 'every-kind',
  version: '1.0.0',
  tools: [
    defineTool<{ text: string }>({
      name: 'echo',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      handler: ({ text }) => ({ content: [{ type: 'text', text }] }),
    }),
  ],
  resources: [
    { uri: 'census://readme', name: 'readme', read: () => [{ uri: 'census://readme', text: 'hi' }] },
  ],
  resourceTemplates: [
    {
      uriTemplate: 'census://users/{id}',
      name: 'user',
      read: (uri) => [{ uri, text: 'user' }],
      complete: { id: (value) => [`${value}1`] },
    },
  ],
  prompts: [
    {
      name: 'greet',
      arguments: [{ name: 'style', complete: () => ['formal'] }],
      get: () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'hello' } }] }),
    },
  ],
};
