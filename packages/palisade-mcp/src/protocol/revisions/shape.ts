/**
 * Shapes what Palisade sends to one revision's schema, driven by that revision's table: members
 * the schema does not define are left out, as is a content block of a type it does not define.
 * Nothing is renamed, converted or invented: a host that wants something else sent to an older
 * client reads `ctx.revision` and returns it. Under a revision that defines everything Palisade
 * can send (`narrows` false), every function returns its input, copying nothing.
 */
import type {
  CompiledPrompt,
  CompiledResource,
  CompiledTemplate,
  CompiledTool,
} from '../../catalog/catalog.js';
import type { JsonObject } from '../../catalog/types.js';
import { isPlainObject } from '../../options.js';
import type { RevisionProfile } from './profile.js';

/** The members of `source` that `members` names, in `source`'s order. */
function only(source: Readonly<JsonObject>, members: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const key of Object.keys(source)) if (members.includes(key)) out[key] = source[key];
  return out;
}

/** `annotations` narrowed to `members`, and left out once nothing of it remains. */
function withAnnotations(out: JsonObject, members: readonly string[]): JsonObject {
  const annotations = out['annotations'];
  if (!isPlainObject(annotations)) return out;
  const kept = only(annotations, members);
  if (Object.keys(kept).length === 0) delete out['annotations'];
  else out['annotations'] = kept;
  return out;
}

export function shapeResourceContents(profile: RevisionProfile, contents: JsonObject): JsonObject {
  return profile.narrows ? only(contents, profile.fields.resourceContents) : contents;
}

/** One content block, or undefined when the revision defines no block of its type. */
export function shapeContentBlock(profile: RevisionProfile, block: JsonObject): JsonObject | undefined {
  if (!profile.narrows) return block;
  const members = profile.content.get(block['type'] as string);
  if (members === undefined) return undefined;
  const out = withAnnotations(only(block, members), profile.fields.annotations);
  if (isPlainObject(out['resource'])) out['resource'] = shapeResourceContents(profile, out['resource']);
  return out;
}

export function shapeContentBlocks(profile: RevisionProfile, blocks: JsonObject[]): JsonObject[] {
  if (!profile.narrows) return blocks;
  const out: JsonObject[] = [];
  for (const block of blocks) {
    const shaped = shapeContentBlock(profile, block);
    if (shaped !== undefined) out.push(shaped);
  }
  return out;
}

/** `serverInfo`: the server's identity, as the revision's `Implementation` defines it. */
export function shapeImplementation(profile: RevisionProfile, info: Readonly<JsonObject>): JsonObject {
  return only(info, profile.fields.implementation);
}

/** The capabilities built for a revision, less any top-level key its schema does not define. */
export function shapeCapabilities(profile: RevisionProfile, advertised: JsonObject): JsonObject {
  return only(advertised, [...profile.capabilities]);
}

/** The params of `notifications/progress`, as the revision defines them. */
export function shapeProgress(profile: RevisionProfile, params: JsonObject): JsonObject {
  return profile.narrows ? only(params, profile.fields.progress) : params;
}

// Listings are shaped once per revision and catalog item, then reused: a catalog never changes.
const listings = new WeakMap<RevisionProfile, WeakMap<object, JsonObject>>();

function memoized(profile: RevisionProfile, item: object, build: () => JsonObject): JsonObject {
  let byItem = listings.get(profile);
  if (byItem === undefined) {
    byItem = new WeakMap();
    listings.set(profile, byItem);
  }
  let listing = byItem.get(item);
  if (listing === undefined) {
    listing = Object.freeze(build());
    byItem.set(item, listing);
  }
  return listing;
}

export function toolListing(profile: RevisionProfile, tool: CompiledTool): JsonObject {
  // The common case, 2026-07-28 or any tool without an outputSchema on 2025-11-25: as compiled.
  if (!profile.narrows && (profile.outputSchema === 'any' || tool.outputIsObject)) return tool.listing;
  return memoized(profile, tool, () => {
    const out = only(tool.listing, profile.fields.tool);
    if (profile.outputSchema === 'object-root' && !tool.outputIsObject) delete out['outputSchema'];
    return withAnnotations(out, profile.fields.toolAnnotations);
  });
}

export function resourceListing(profile: RevisionProfile, resource: CompiledResource): JsonObject {
  if (!profile.narrows) return resource.listing;
  return memoized(profile, resource, () =>
    withAnnotations(only(resource.listing, profile.fields.resource), profile.fields.annotations),
  );
}

export function templateListing(profile: RevisionProfile, template: CompiledTemplate): JsonObject {
  if (!profile.narrows) return template.listing;
  return memoized(profile, template, () =>
    withAnnotations(only(template.listing, profile.fields.resourceTemplate), profile.fields.annotations),
  );
}

export function promptListing(profile: RevisionProfile, prompt: CompiledPrompt): JsonObject {
  if (!profile.narrows) return prompt.listing;
  return memoized(profile, prompt, () => {
    const out = only(prompt.listing, profile.fields.prompt);
    if (Array.isArray(out['arguments']))
      out['arguments'] = out['arguments'].map((argument: JsonObject) =>
        only(argument, profile.fields.promptArgument),
      );
    return out;
  });
}
