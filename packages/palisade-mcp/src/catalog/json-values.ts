/**
 * The plain JSON values a host hands Palisade and the wire carries as they are: an object of JSON,
 * and what an input request asks the client for. A leaf: the declarations (types.ts) and the task
 * store's contract (task-store.ts) both build on these, and neither may import the other's file
 * to get them, so no import circle can form between the two.
 */

export type JsonObject = { [key: string]: unknown };

/** What an input request may ask the client for (MRTR, 2026-07-28). */
export type InputRequestMethod = 'elicitation/create' | 'sampling/createMessage' | 'roots/list';

export interface InputRequest {
  readonly method: InputRequestMethod;
  readonly params: JsonObject;
}
