/**
 * Refusals the stdio transport answers itself (a frame or a message the wire reader refused, a
 * request id already in flight), told to whoever watches: one event per refusal on
 * `palisade:stdio-refusal` as `{ rule, code }`, and a `warn` record when the host passed a
 * `logger`. The rule is one of Palisade's names and the code one of its numbers: nothing the
 * client sent is carried.
 */
import { channel } from 'node:diagnostics_channel';
import { STDIO_REFUSAL_CHANNEL, type StdioRefusalEvent } from '../telemetry/channel-names.js';
import { type PalisadeLogger, refusalToLogger } from '../telemetry/logger.js';

/** A request whose id names a request still in flight on this connection. */
export const ID_IN_FLIGHT_RULE = 'id-in-flight';

const refusalChannel = channel(STDIO_REFUSAL_CHANNEL);

export function reportStdioRefusal(rule: string, code: number, logger: PalisadeLogger | undefined): void {
  if (refusalChannel.hasSubscribers) {
    const event: StdioRefusalEvent = { rule, code };
    refusalChannel.publish(event);
  }
  if (logger !== undefined)
    refusalToLogger(logger, 'warn', { event: 'palisade.refusal', transport: 'stdio', rule, code });
}
