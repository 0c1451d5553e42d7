/**
 * The official SDK 1.x client always offers its latest revision in `initialize`. Pinned here to
 * another: its transport rewrites the `initialize` it sends, and keeps the version the server's
 * answer names, so a test can read what was negotiated. (2.x pins by `supportedProtocolVersions`.)
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

type Message = Parameters<Transport['send']>[0];

/** `transport`, offering `revision`; `negotiated()` is the version the server answered with. */
export function pinnedV1<T extends Transport>(
  transport: T,
  revision: string,
): T & { readonly negotiated: () => unknown } {
  let negotiated: unknown;
  const send = transport.send.bind(transport);
  transport.send = (message: Message, options) => {
    const pinned =
      'method' in message && message.method === 'initialize'
        ? { ...message, params: { ...message.params, protocolVersion: revision } }
        : message;
    return send(pinned as Message, options);
  };
  const start = transport.start.bind(transport);
  transport.start = () => {
    // The client sets onmessage before it starts the transport.
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if ('result' in message && message.id === 0)
        negotiated = (message.result as { protocolVersion?: unknown }).protocolVersion;
      deliver?.(message, extra);
    };
    return start();
  };
  return Object.assign(transport, { negotiated: () => negotiated });
}
