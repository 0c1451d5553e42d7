/**
 * One round of a handler's requests to the client, on whatever carries them (an HTTP session's
 * stream, a stdio connection): each request is sent under an id the relay issued, and the round
 * settles once every one is answered, its wait lapsed, the session ended or the handler was
 * cancelled. It never rejects: what went unanswered is said in `unanswered`, which the core turns
 * into PALISADE_ERR_INPUT_UNANSWERED in the handler.
 */
import type { JsonObject } from '../catalog/types.js';
import type { InputAnswers, InputRequiredValue } from '../protocol/input-required.js';
import { encodeMessage } from '../wire/encode.js';
import { clientRequest } from './client-request.js';
import type { ClientReply, PendingReply, SessionRelay, WaitEnd } from './contracts.js';

export interface RoundCarrier {
  /** The session (or connection) the waits belong to. */
  readonly session: string;
  readonly relay: Pick<SessionRelay, 'wait'>;
  readonly timeoutMs: number;
  /** The handler's signal: once it fires, every wait of the round is cancelled. */
  readonly signal: AbortSignal;
  /** Writes one encoded request to the client. */
  send(text: string): void;
}

export async function askRound(
  requests: InputRequiredValue['requests'],
  carrier: RoundCarrier,
): Promise<InputAnswers> {
  const keys = Object.keys(requests);
  const deadline = Date.now() + carrier.timeoutMs;
  const pending: PendingReply[] = [];
  for (const _ of keys) {
    const waited = carrier.relay.wait(carrier.session, deadline);
    pending.push(waited instanceof Promise ? await waited : waited);
  }
  const cancel = (): void => {
    for (const wait of pending) wait.cancel();
  };
  const { signal } = carrier;
  if (signal.aborted) cancel();
  else signal.addEventListener('abort', cancel, { once: true });
  keys.forEach((key, index) => {
    const request = requests[key];
    const wait = pending[index];
    if (request === undefined || wait === undefined) return;
    const encoded = encodeMessage(clientRequest(wait.id, request));
    if (encoded.ok) carrier.send(encoded.text);
    else wait.cancel();
  });
  const replies = await Promise.all(pending.map((wait) => wait.reply));
  signal.removeEventListener('abort', cancel);
  const responses: Record<string, JsonObject> = {};
  let unanswered: string | undefined;
  keys.forEach((key, index) => {
    const reply = replies[index] as ClientReply | WaitEnd;
    if (reply === 'lapsed')
      unanswered ??= `no answer to ${requests[key]?.method} within ${carrier.timeoutMs} ms`;
    else if (reply === 'ended') unanswered ??= 'the session ended';
    else if ('error' in reply)
      unanswered ??= `the client answered ${requests[key]?.method} with error ${reply.error.code}`;
    else responses[key] = reply.result as JsonObject;
  });
  return unanswered === undefined ? { responses } : { responses, unanswered };
}
