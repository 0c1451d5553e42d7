/**
 * One SSE response read to its end under the parser's byte bounds and two clocks: no byte for
 * `idleMs` ends it (`idle`), and an event not finished `eventMs` after its first byte ends it
 * (`event-deadline`: the drip that keeps a connection alive a byte at a time). Each event's data
 * goes through the bounded JSON reader; a refused event ends the stream with that refusal.
 */
import { readJsonMessage } from 'palisade-mcp/wire';
import type { Dispatcher } from 'undici';
import { ClientError } from '../../errors.js';
import { SseParser } from './sse-parser.js';

export interface SseClocks {
  readonly idleMs: number;
  readonly eventMs: number;
}

export interface SseOutcome {
  readonly lastEventId: string | undefined;
  readonly retryMs: number | undefined;
}

export function refusedMessage(rule: string, message: string): ClientError {
  return new ClientError(
    'PALISADE_CLIENT_ERR_MESSAGE_REFUSED',
    `the server sent a message the client refused: ${message}`,
    {
      rule,
    },
  );
}

export async function readSse(
  body: Dispatcher.ResponseData['body'],
  clocks: SseClocks,
  deliver: (message: Record<string, unknown>) => void,
  parser: SseParser = new SseParser(),
): Promise<SseOutcome> {
  let failure: ClientError | undefined;
  let idle: NodeJS.Timeout | undefined;
  let eventTimer: NodeJS.Timeout | undefined;
  const fail = (error: ClientError): void => {
    failure ??= error;
    body.destroy();
  };
  const armIdle = (): void => {
    if (idle !== undefined) idle.refresh();
    else
      idle = setTimeout(
        () =>
          fail(
            new ClientError(
              'PALISADE_CLIENT_ERR_SSE_REFUSED',
              `the SSE stream was silent for ${clocks.idleMs} ms`,
              { rule: 'idle' },
            ),
          ),
        clocks.idleMs,
      );
  };
  armIdle();
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      armIdle();
      const events = parser.push(chunk);
      for (const event of events) {
        if (event.event !== 'message') continue;
        const read = readJsonMessage(event.data);
        if (!read.ok) throw refusedMessage(read.refusal.rule, read.refusal.message);
        deliver(read.value);
      }
      // The deadline runs from the end of the last finished event: a new event restarts it.
      if (events.length > 0 && eventTimer !== undefined) {
        clearTimeout(eventTimer);
        eventTimer = undefined;
      }
      if (parser.inEvent) {
        eventTimer ??= setTimeout(
          () =>
            fail(
              new ClientError(
                'PALISADE_CLIENT_ERR_SSE_REFUSED',
                `an SSE event was not finished within ${clocks.eventMs} ms`,
                {
                  rule: 'event-deadline',
                },
              ),
            ),
          clocks.eventMs,
        );
      } else if (eventTimer !== undefined) {
        clearTimeout(eventTimer);
        eventTimer = undefined;
      }
    }
  } catch (error) {
    if (failure === undefined) {
      if (error instanceof ClientError) {
        body.destroy();
        throw error;
      }
      throw new ClientError('PALISADE_CLIENT_ERR_TRANSPORT', 'the SSE stream ended in an error', {
        cause: error,
      });
    }
  } finally {
    clearTimeout(idle);
    clearTimeout(eventTimer);
  }
  if (failure !== undefined) throw failure;
  return { lastEventId: parser.lastEventId, retryMs: parser.retryMs };
}
