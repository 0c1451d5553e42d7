/**
 * The four list methods: one cursor, one page size, the cache hint of their list on every page,
 * each item listed as the request's revision defines it.
 */
import { decodeCursor, type ListKind, paginate } from '../../catalog/cursor.js';
import type { JsonObject } from '../../catalog/types.js';
import { invalidParams } from '../errors.js';
import { profileOf } from '../revisions/index.js';
import { promptListing, resourceListing, templateListing, toolListing } from '../revisions/shape.js';
import { type Call, failure, type Outcome, result } from './call.js';

function page<T>(
  call: Call,
  kind: ListKind,
  items: readonly T[],
  keyOf: (item: T) => string,
  listingOf: (item: T) => JsonObject,
  field: string,
  cacheKey: 'tools' | 'resources' | 'prompts',
): Outcome {
  let after: string | undefined;
  if (call.params['cursor'] !== undefined) {
    const decoded = decodeCursor(kind, call.params['cursor']);
    if (!decoded.ok) return failure(invalidParams(call.id, decoded.message));
    after = decoded.after;
  }
  const { items: slice, nextCursor } = paginate(kind, items, keyOf, after, call.server.pageSize);
  const body: JsonObject = { [field]: slice.map(listingOf) };
  if (nextCursor !== undefined) body['nextCursor'] = nextCursor;
  return result(body, call.server.cache[cacheKey]);
}

export function listTools(call: Call): Outcome {
  const profile = profileOf(call.revision);
  return page(
    call,
    'tools',
    call.server.catalog.toolList,
    (tool) => tool.definition.name,
    (tool) => toolListing(profile, tool),
    'tools',
    'tools',
  );
}

export function listResources(call: Call): Outcome {
  const { resourceList } = call.server.catalog;
  const profile = profileOf(call.revision);
  return page(
    call,
    'resources',
    resourceList,
    (resource) => resource.definition.uri,
    (resource) => resourceListing(profile, resource),
    'resources',
    'resources',
  );
}

export function listResourceTemplates(call: Call): Outcome {
  const { templateList } = call.server.catalog;
  const profile = profileOf(call.revision);
  return page(
    call,
    'resourceTemplates',
    templateList,
    (template) => template.template.source,
    (template) => templateListing(profile, template),
    'resourceTemplates',
    'resources',
  );
}

export function listPrompts(call: Call): Outcome {
  const { promptList } = call.server.catalog;
  const profile = profileOf(call.revision);
  return page(
    call,
    'prompts',
    promptList,
    (prompt) => prompt.definition.name,
    (prompt) => promptListing(profile, prompt),
    'prompts',
    'prompts',
  );
}
