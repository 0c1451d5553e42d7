/**
 * The HTTP peer of the tasks tests: user-peer.ts declaring the tasks extension (and elicitation)
 * unless a call names other capabilities. `Mcp-Name` mirrors `params.taskId` on the tasks
 * methods, as SEP-2663 asks.
 */
import type { ServerDefinition } from '../../src/index.js';
import type { Json } from './http-peer.js';
import { mountUserPeer, type UserPeer } from './user-peer.js';

export const TASKS_CAPABILITIES: Json = {
  elicitation: {},
  extensions: { 'io.modelcontextprotocol/tasks': {} },
};

export type TasksPeer = UserPeer;

export function mountTasks(definition: ServerDefinition): Promise<TasksPeer> {
  return mountUserPeer(definition, TASKS_CAPABILITIES);
}
