/**
 * The in-memory change bus and task store (the defaults) pass the contracts every implementation
 * must pass (change-bus-contract.ts, task-store-contract.ts).
 */
import { MemoryTaskStore } from '../../src/catalog/memory-task-store.js';
import { MemoryChangeBus } from '../../src/protocol/change-bus.js';
import { changeBusContract } from './change-bus-contract.js';
import { CONTRACT_TASK_TTL_MS, taskStoreContract } from './task-store-contract.js';

changeBusContract('memory', () => {
  const bus = new MemoryChangeBus();
  return { a: bus, b: bus };
});
taskStoreContract('memory', () => new MemoryTaskStore({ ttlMs: CONTRACT_TASK_TTL_MS }));
