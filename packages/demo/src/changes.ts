/**
 * Two demo tools that show what a connection carries besides answers: one announces that the tool
 * list changed, which every listening client hears as `notifications/tools/list_changed` (stdio,
 * an HTTP session's GET stream, a 2026-07-28 subscription); one waits until its call is cancelled,
 * and says on the demo's stderr that its handler saw the signal fire and stopped.
 */
import { defineTool, ToolError } from 'palisade-mcp';

/** Long enough to cancel by hand from the MCP Inspector, short enough that a forgotten call ends. */
const MAX_WAIT_SECONDS = 30;

function text(value: string) {
  return { content: [{ type: 'text' as const, text: value }] };
}

/** `announce` is the serving server's `notifyListChanged('tools')`. */
export function announceToolsChanged(announce: (() => Promise<void>) | undefined) {
  return defineTool({
    name: 'announce_tools_changed',
    title: 'Announce a tool list change',
    description:
      'Tells every client listening for changes that the tool list changed ' +
      '(notifications/tools/list_changed), so you can watch a client list the tools again. ' +
      'The list itself stays the same.',
    inputSchema: { type: 'object', additionalProperties: false },
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    handler: async () => {
      if (announce === undefined)
        throw new ToolError('This catalog is served without a server to announce changes through.');
      await announce();
      return text('Announced: every client listening heard notifications/tools/list_changed.');
    },
  });
}

export const waitUntilCancelled = defineTool<{ seconds?: number }>({
  name: 'wait',
  title: 'Wait until cancelled',
  description:
    `Waits the given seconds (default and at most ${MAX_WAIT_SECONDS}), reporting progress each ` +
    'second, then says so. Cancel the call from your client to see the server stop it: the ' +
    'handler’s signal fires, it stops waiting, and the demo writes "wait stopped" on its stderr.',
  inputSchema: {
    type: 'object',
    properties: { seconds: { type: 'number', minimum: 0, maximum: MAX_WAIT_SECONDS } },
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: ({ seconds = MAX_WAIT_SECONDS }, ctx) =>
    new Promise((resolve) => {
      const started = performance.now();
      const elapsed = (): string => ((performance.now() - started) / 1000).toFixed(2);
      // Progress once a second, when the client asked for it: a client shows the wait moving.
      let second = 0;
      ctx.progress(0, seconds, 'waiting');
      const ticks = setInterval(() => {
        second += 1;
        ctx.progress(second, seconds, `waited ${second} s`);
      }, 1000);
      const stop = (): void => {
        clearTimeout(timer);
        clearInterval(ticks);
        // A line on stderr, since nothing more is sent for a cancelled request: the signal fires
        // when the client cancels, or when its connection or session ends first.
        process.stderr.write(`palisade demo: wait stopped after ${elapsed()} s: its signal fired\n`);
        resolve(text(`Stopped after ${elapsed()} s: the call was cancelled.`));
      };
      const timer = setTimeout(() => {
        clearInterval(ticks);
        ctx.signal.removeEventListener('abort', stop);
        resolve(text(`Waited ${seconds} s.`));
      }, seconds * 1000);
      if (ctx.signal.aborted) stop();
      else ctx.signal.addEventListener('abort', stop, { once: true });
    }),
});
