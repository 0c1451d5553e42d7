/**
 * The server the session tests run: tools that answer at once, wait until released or cancelled,
 * talk (progress and log messages), ask the client for input, and a resource clients may watch.
 * A `Probe` records what the handlers saw (signals fired, errors caught, answers received), so a
 * test reads on the server side what the wire alone cannot show.
 */
import { createServer, defineTool, PalisadeError, type Server } from '../../src/index.js';
import { hmacSealer } from '../fixtures/mrtr.js';

export interface Probe {
  /** Request names whose handler saw its signal fire. */
  readonly aborted: string[];
  /** `PalisadeError` codes and messages a handler caught from `ctx.inputRequired`. */
  readonly inputErrors: { code: string; message: string }[];
  /** Every round a handler ran, with the input responses it had. */
  readonly rounds: { tag: string; responses: unknown }[];
  /** Handlers waiting in `hold`, by tag: resolve to let one finish. */
  readonly held: Map<string, () => void>;
  /** Settles when a handler with that tag has started. */
  started(tag: string): Promise<void>;
  /** Called by a handler as it starts. */
  mark(tag: string): void;
}

export function newProbe(): Probe {
  const waiting = new Map<string, () => void>();
  const seen = new Set<string>();
  const held = new Map<string, () => void>();
  return {
    aborted: [],
    inputErrors: [],
    rounds: [],
    held,
    started(tag) {
      if (seen.has(tag)) return Promise.resolve();
      return new Promise((resolve) => waiting.set(tag, resolve));
    },
    mark(tag) {
      seen.add(tag);
      waiting.get(tag)?.();
    },
  };
}

function text(value: string) {
  return { content: [{ type: 'text' as const, text: value }] };
}

const SAMPLE = {
  method: 'sampling/createMessage' as const,
  params: { messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }], maxTokens: 10 },
};

export function sessionServer(probe: Probe = newProbe()): Server {
  const mark = (tag: string): void => probe.mark(tag);
  return createServer({
    name: 'session-fixture',
    version: '1.0.0',
    // The same handlers serve 2026-07-28, where a handler's state travels sealed in requestState.
    requestState: { sealer: hmacSealer() },
    notifications: { toolsListChanged: true, resourcesListChanged: true, resourceSubscriptions: true },
    resources: [
      { uri: 'test://watched', name: 'watched', read: () => [{ uri: 'test://watched', text: 'now' }] },
      { uri: 'test://other', name: 'other', read: () => [{ uri: 'test://other', text: 'other' }] },
    ],
    tools: [
      defineTool<{ text: string }>({
        name: 'echo',
        inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
        handler: ({ text: value }) => text(value),
      }),
      defineTool<{ tag: string; say?: boolean; sayAfter?: boolean; stubborn?: boolean }>({
        name: 'hold',
        description:
          'Waits until the test releases it or its signal fires; with `say`, logs first; with `sayAfter`, logs once aborted; with `stubborn`, only a release ends it.',
        inputSchema: {
          type: 'object',
          properties: {
            tag: { type: 'string' },
            say: { type: 'boolean' },
            sayAfter: { type: 'boolean' },
            stubborn: { type: 'boolean' },
          },
          required: ['tag'],
        },
        handler: ({ tag, say = false, sayAfter = false, stubborn = false }, ctx) =>
          new Promise((resolve) => {
            if (say) ctx.log('info', `holding ${tag}`);
            ctx.signal.addEventListener('abort', () => {
              if (sayAfter) ctx.log('info', `aborted ${tag}`);
              probe.aborted.push(tag);
              if (!stubborn) resolve(text(`aborted ${tag}`));
            });
            probe.held.set(tag, () => resolve(text(`released ${tag}`)));
            mark(tag);
          }),
      }),
      defineTool<{ count: number }>({
        name: 'chatty',
        description: 'Logs `count` messages at info, then answers.',
        inputSchema: { type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] },
        handler: ({ count }, ctx) => {
          for (let n = 0; n < count; n += 1) ctx.log('info', `line ${n}`);
          ctx.log('debug', 'below info');
          return text(`logged ${count}`);
        },
      }),
      defineTool<{ tag?: string }>({
        name: 'ask',
        description: 'Asks the client to sample, then answers with what it said.',
        inputSchema: { type: 'object', properties: { tag: { type: 'string' } } },
        handler: ({ tag = 'ask' }, ctx) => {
          const answer = ctx.inputResponses?.['hi'];
          probe.rounds.push({ tag, responses: ctx.inputResponses });
          if (answer !== undefined) {
            const content = answer['content'] as { text?: unknown } | undefined;
            return text(`sampled: ${String(content?.text)} (state ${JSON.stringify(ctx.requestState)})`);
          }
          try {
            mark(tag);
            return ctx.inputRequired({ requests: { hi: SAMPLE }, state: { step: 1 } });
          } catch (error) {
            if (!(error instanceof PalisadeError)) throw error;
            probe.inputErrors.push({ code: error.code, message: error.message });
            return text(`fell back: ${error.code}`);
          }
        },
      }),
      defineTool({
        name: 'ask_url',
        description: 'Asks the client to open a URL (URL-mode elicitation, 2025-11-25 on).',
        inputSchema: { type: 'object' },
        handler: (_args, ctx) =>
          ctx.inputResponses?.['link'] !== undefined
            ? text('opened')
            : ctx.inputRequired({
                requests: {
                  link: {
                    method: 'elicitation/create',
                    params: {
                      mode: 'url',
                      message: 'Open this',
                      url: 'https://example.com/consent',
                      elicitationId: 'e-1',
                    },
                  },
                },
              }),
      }),
      defineTool({
        name: 'ask_twice',
        description: 'Asks for a name and roots in one round, then a colour in a second.',
        inputSchema: { type: 'object' },
        handler: (_args, ctx) => {
          const responses = ctx.inputResponses ?? {};
          probe.rounds.push({ tag: 'ask_twice', responses: ctx.inputResponses });
          if (responses['colour'] !== undefined)
            return text(
              `done: ${JSON.stringify(responses['colour'])} after ${JSON.stringify(ctx.requestState)}`,
            );
          if (responses['name'] !== undefined && responses['roots'] !== undefined)
            return ctx.inputRequired({
              requests: {
                colour: {
                  method: 'elicitation/create',
                  params: {
                    message: 'Colour?',
                    requestedSchema: { type: 'object', properties: { c: { type: 'string' } } },
                  },
                },
              },
              state: { round: 2 },
            });
          return ctx.inputRequired({
            requests: {
              name: {
                method: 'elicitation/create',
                params: {
                  message: 'Name?',
                  requestedSchema: { type: 'object', properties: { n: { type: 'string' } } },
                },
              },
              roots: { method: 'roots/list', params: {} },
            },
            state: { round: 1 },
          });
        },
      }),
    ],
  });
}
