/**
 * `resources/read` serves only a URI the catalog lists or a listed template matches, and that is
 * decided before any host reader runs. Not found is the revision's code (-32002 on the handshake
 * revisions, -32602 on 2026-07-28, which must not emit -32002), with `data.uri` when the URI is
 * short enough to echo.
 */
import { resourceContents } from '../../catalog/content.js';
import { HostFault } from '../../catalog/host-fault.js';
import type { InputRequired, ReadResourceReturn } from '../../catalog/types.js';
import { dispatchTraced, traceDispatch } from '../../telemetry/dispatch-channel.js';
import { RESOURCE_NOT_FOUND } from '../../wire/codes.js';
import { errorResponse } from '../../wire/jsonrpc.js';
import { invalidParams, MAX_ECHOED_URI_CHARS } from '../errors.js';
import { inputRequiredValue, isInputRequired } from '../input-required.js';
import { profileOf } from '../revisions/index.js';
import { shapeResourceContents } from '../revisions/shape.js';
import { askedForInput, type Call, failure, type Outcome, result } from './call.js';
import { refuseLackedCapabilities } from './required-capabilities.js';

function notFound(call: Call, uri: string): Outcome {
  const data = uri.length <= MAX_ECHOED_URI_CHARS ? { uri } : undefined;
  if (profileOf(call.revision).resourceNotFound === RESOURCE_NOT_FOUND) {
    return failure(errorResponse(call.id, RESOURCE_NOT_FOUND, 'Resource not found', data));
  }
  return failure(invalidParams(call.id, 'resource not found', data));
}

/**
 * The host's reader, on the dispatch channel when someone traces it (else called as is); its value
 * and its error pass through untouched.
 */
function traced<T>(
  call: Call,
  target: { readonly resource: string } | { readonly resourceTemplate: string },
  read: () => Promise<T> | T,
): Promise<T> | T {
  if (!dispatchTraced()) return read();
  const event = {
    server: call.server.info.name,
    ...target,
    revision: call.revision,
    traceContext: call.ctx.traceContext,
  };
  return traceDispatch(event, read, () => 'ok');
}

export async function readResource(call: Call): Promise<Outcome> {
  const uri = call.params['uri'];
  if (typeof uri !== 'string')
    return failure(invalidParams(call.id, 'resources/read needs params.uri as a string'));
  const { catalog } = call.server;
  let contents: ReadResourceReturn | InputRequired;
  const listed = catalog.resources?.get(uri);
  if (listed !== undefined) {
    const lacked = refuseLackedCapabilities(call, listed.requiredCapabilities);
    if (lacked !== undefined) return lacked;
    contents = await traced(call, { resource: uri }, () => listed.definition.read(call.ctx));
  } else {
    let matched: ReadResourceReturn | InputRequired | null = null;
    for (const template of catalog.templates) {
      const variables = template.template.match(uri);
      if (variables === undefined) continue;
      const lacked = refuseLackedCapabilities(call, template.requiredCapabilities);
      if (lacked !== undefined) return lacked;
      // The template, not the URI, names the read: the URI carries the caller's variables.
      const { uriTemplate } = template.definition;
      matched = await traced(call, { resourceTemplate: uriTemplate }, () =>
        template.definition.read(uri, Object.freeze(variables), call.ctx),
      );
      break;
    }
    if (matched === null) return notFound(call, uri);
    contents = matched;
  }
  if (isInputRequired(contents)) return askedForInput(inputRequiredValue(contents));
  if (contents === undefined) return notFound(call, uri);
  if (!Array.isArray(contents))
    throw new HostFault('a resource reader must return an array of contents or undefined');
  // An empty array would claim the resource exists and is empty; the spec forbids it for a missing one.
  if (contents.length === 0) return notFound(call, uri);
  const profile = profileOf(call.revision);
  return result(
    {
      contents: contents.map((entry, index) =>
        shapeResourceContents(profile, resourceContents(entry, `resource contents[${index}]`)),
      ),
    },
    call.server.cache.resources,
  );
}
