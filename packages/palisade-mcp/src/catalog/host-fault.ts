/**
 * A contract the host broke (a malformed result, a handler that threw). The client only ever
 * sees -32603 "Internal error"; the description goes to the host's own log.
 */
export class HostFault extends Error {
  constructor(
    readonly description: string,
    override readonly cause?: unknown,
  ) {
    super(description);
    this.name = 'HostFault';
  }
}
