/**
 * The in-memory session store, event store and relay (the defaults) pass the contract every
 * implementation must pass (contract-suite.ts).
 */
import { MemoryEventStore } from '../../src/sessions/memory-event-store.js';
import { MemoryRelay } from '../../src/sessions/memory-relay.js';
import { MemorySessionStore } from '../../src/sessions/memory-session-store.js';
import { eventStoreContract, relayContract, sessionStoreContract } from './contract-suite.js';

sessionStoreContract('memory', () => new MemorySessionStore());
eventStoreContract('memory', () => new MemoryEventStore());
relayContract('memory', () => new MemoryRelay());
