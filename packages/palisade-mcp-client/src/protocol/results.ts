/**
 * A result is held to the shape its method requires on the revision in force before the host
 * sees it: the members the schema of that revision makes required, with their types, and the
 * 2026-07-28 envelope (`resultType` on every result). A result that does not fit is the named
 * error `PALISADE_CLIENT_ERR_RESULT_INVALID` on that call, with the path of the first member at
 * fault; the client goes on. Members a revision does not define are let through (schemas are
 * open), and nothing in a result is interpreted but what the client itself acts on.
 */
import { MODERN_REVISION } from 'palisade-mcp/wire';
import { ClientError } from '../errors.js';
import { isPlainObject } from '../options.js';

type Check = (value: unknown, path: string) => string | undefined;

const str: Check = (v, p) => (typeof v === 'string' ? undefined : `${p} must be a string`);
const optStr: Check = (v, p) => (v === undefined ? undefined : str(v, p));
const obj: Check = (v, p) => (isPlainObject(v) ? undefined : `${p} must be an object`);
const optObj: Check = (v, p) => (v === undefined ? undefined : obj(v, p));
const optBool: Check = (v, p) =>
  v === undefined || typeof v === 'boolean' ? undefined : `${p} must be a boolean`;

function shape(members: Readonly<Record<string, Check>>): Check {
  // Entries taken once here, and a member's path built only when it is at fault: this runs on
  // every answer, and the per-call copies and strings showed in the client's profile.
  const entries = Object.entries(members);
  return (value, path) => {
    if (!isPlainObject(value)) return `${path} must be an object`;
    for (const [name, check] of entries) {
      const member = value[name];
      if (check(member, '') === undefined) continue;
      return check(member, `${path}.${name}`);
    }
    return undefined;
  };
}

function arrayOf(item: Check, max?: number): Check {
  return (value, path) => {
    if (!Array.isArray(value)) return `${path} must be an array`;
    if (max !== undefined && value.length > max) return `${path} holds more than ${max} items`;
    for (let index = 0; index < value.length; index += 1) {
      if (item(value[index], '') !== undefined) return item(value[index], `${path}[${index}]`);
    }
    return undefined;
  };
}

const implementation = shape({ name: str, version: str });
const content = shape({ type: str });
const tool = shape({ name: str, inputSchema: obj, outputSchema: optObj });
const resource = shape({ uri: str, name: str });
const template = shape({ uriTemplate: str, name: str });
const contents: Check = (value, path) => {
  const base = shape({ uri: str, mimeType: optStr })(value, path);
  if (base !== undefined) return base;
  const v = value as Record<string, unknown>;
  if (typeof v['text'] !== 'string' && typeof v['blob'] !== 'string') return `${path} must hold text or blob`;
  return undefined;
};
const prompt = shape({ name: str });
const promptMessage = shape({ role: str, content });
const cursor: Check = (v, p) => optStr(v, p);

const RESULTS: Readonly<Record<string, Check>> = {
  initialize: shape({
    protocolVersion: str,
    capabilities: obj,
    serverInfo: implementation,
    instructions: optStr,
  }),
  'server/discover': shape({ supportedVersions: arrayOf(str), capabilities: obj, instructions: optStr }),
  'tools/list': shape({ tools: arrayOf(tool), nextCursor: cursor }),
  'tools/call': shape({ content: arrayOf(content), isError: optBool }),
  'resources/list': shape({ resources: arrayOf(resource), nextCursor: cursor }),
  'resources/templates/list': shape({ resourceTemplates: arrayOf(template), nextCursor: cursor }),
  'resources/read': shape({ contents: arrayOf(contents) }),
  'prompts/list': shape({ prompts: arrayOf(prompt), nextCursor: cursor }),
  'prompts/get': shape({ messages: arrayOf(promptMessage), description: optStr }),
  'completion/complete': shape({ completion: shape({ values: arrayOf(str, 100) }) }),
};

const INPUT_REQUIRED = shape({ inputRequests: optObj, requestState: optStr });

/** The methods a result of `input_required` may answer (2026-07-28). */
export const INPUT_METHODS: ReadonlySet<string> = new Set(['tools/call', 'resources/read', 'prompts/get']);

function invalid(method: string, fault: string): ClientError {
  return new ClientError(
    'PALISADE_CLIENT_ERR_RESULT_INVALID',
    `the ${method.length > 64 ? 'request' : method} result does not fit its schema: ${fault}`,
    { rule: 'result-shape' },
  );
}

/** Throws the named error when `result` does not have the shape `method` requires on `revision`. */
export function checkResult(method: string, revision: string | undefined, result: unknown): void {
  if (!isPlainObject(result)) throw invalid(method, 'result must be an object');
  if (revision === MODERN_REVISION) {
    // SEP-2322: a result without resultType is complete.
    const type = result['resultType'] ?? 'complete';
    if (typeof type !== 'string') throw invalid(method, 'result.resultType must be a string');
    if (type === 'input_required') {
      if (!INPUT_METHODS.has(method))
        throw invalid(method, 'result.resultType input_required is not allowed on this method');
      const fault = INPUT_REQUIRED(result, 'result');
      if (fault !== undefined) throw invalid(method, fault);
      if (result['inputRequests'] === undefined && result['requestState'] === undefined) {
        throw invalid(method, 'an input_required result holds inputRequests or requestState');
      }
      return;
    }
    if (type === 'task') {
      if (method !== 'tools/call')
        throw invalid(method, 'result.resultType task is not allowed on this method');
      const fault = shape({ taskId: str, status: str })(result, 'result');
      if (fault !== undefined) throw invalid(method, fault);
      return;
    }
    if (type !== 'complete') throw invalid(method, 'result.resultType is not one the client declared');
  }
  const check = RESULTS[method];
  if (check === undefined) return;
  const fault = check(result, 'result');
  if (fault !== undefined) throw invalid(method, fault);
  if (method === 'tools/call' && revision !== MODERN_REVISION && result['structuredContent'] !== undefined) {
    if (!isPlainObject(result['structuredContent']))
      throw invalid(method, 'result.structuredContent must be an object on this revision');
  }
}
