/**
 * The connectome on the wire, as the host chooses: three resource definitions the host may put
 * in its catalog (`resources` of `createServer`). They are ordinary resources under a private
 * `connectome://` scheme; no capability is invented or advertised for them. Each read answers
 * canonical bytes (`application/json`) computed at read time, and a read changes nothing: it
 * builds a graph from the collector's rows without writing them. The read is a dispatch like any
 * resource read and is published on the dispatch channel, but the collector does not record reads
 * of these three URIs (`observed.ts`), so a read cannot change what the next read answers; in a
 * diff they stay declared and never observed.
 *
 * The declared graph is a thunk because the catalog it reads includes these resources: the host
 * builds the server with them, then the thunk reads that server.
 */
import type { ResourceContents, ResourceDefinition } from 'palisade-mcp';
import { encodeGraph, readAlgorithm } from './canonical.js';
import { diffGraphs, encodeDiff } from './diff.js';
import { ConnectomeError } from './errors.js';
import type { Graph } from './graph.js';
import type { LabelObject } from './label-value.js';
import { observedGraph, requireCollector } from './observed.js';
import { isPlainObject, refuseUnknownKeys } from './options.js';

import {
  CONNECTOME_DECLARED_URI,
  CONNECTOME_DIFF_URI,
  CONNECTOME_OBSERVED_URI,
  type HashAlgorithm,
} from './vocabulary.js';

export { CONNECTOME_DECLARED_URI, CONNECTOME_DIFF_URI, CONNECTOME_OBSERVED_URI };

export interface ConnectomeResourceOptions {
  /** The declared graph, e.g. `() => declaredFromCatalog(server)`; called on each read. */
  readonly declared: () => Graph;
  /** The observed graph; default the running collector's, every server (`observedGraph()`). */
  readonly observed?: () => Graph;
  /**
   * The diff's window; default `{ started_at, ended_at }`: when the running collector started
   * and the moment of the read, both ISO 8601. Stated, not inferred: it is when watching began.
   */
  readonly window?: () => LabelObject;
  /** Digest named in the bytes; default `sha256`. */
  readonly algorithm?: HashAlgorithm;
}

export function connectomeResources(options: ConnectomeResourceOptions): readonly ResourceDefinition[] {
  if (!isPlainObject(options)) {
    throw new ConnectomeError('PALISADE_ERR_INVALID_OPTION', 'connectomeResources needs an options object');
  }
  refuseUnknownKeys(options, ['declared', 'observed', 'window', 'algorithm'], '');
  const declared = requireThunk<Graph>(options['declared'], 'declared');
  const observed =
    options['observed'] === undefined
      ? () => observedGraph()
      : requireThunk<Graph>(options['observed'], 'observed');
  const window =
    options['window'] === undefined
      ? collectorWindow
      : requireThunk<LabelObject>(options['window'], 'window');
  const algorithm = readAlgorithm(
    options['algorithm'] === undefined ? undefined : { algorithm: options['algorithm'] as HashAlgorithm },
  );

  return Object.freeze([
    resource(
      CONNECTOME_DECLARED_URI,
      'connectome-declared',
      'What this server declares it can reach: canonical graph bytes.',
      () => encodeGraph(declared(), { algorithm }),
    ),
    resource(
      CONNECTOME_OBSERVED_URI,
      'connectome-observed',
      'What this process was seen to reach while a collector ran: canonical graph bytes.',
      () => encodeGraph(observed(), { algorithm }),
    ),
    resource(
      CONNECTOME_DIFF_URI,
      'connectome-diff',
      'Declared against observed: the canonical diff record.',
      () => encodeDiff(diffGraphs(declared(), observed(), { window: window() }), { algorithm }),
    ),
  ]);
}

/** `{ started_at, ended_at }` of the running collector up to now; refused by name when none runs. */
export function collectorWindow(): LabelObject {
  const { startedAt } = requireCollector();
  return { started_at: startedAt, ended_at: new Date().toISOString() };
}

function resource(
  uri: string,
  name: string,
  description: string,
  bytes: () => Uint8Array,
): ResourceDefinition {
  return Object.freeze({
    uri,
    name,
    description,
    mimeType: 'application/json',
    // Canonical bytes are UTF-8 of well-formed text, so the text round-trips to the same bytes.
    read: (): readonly ResourceContents[] => [
      { uri, mimeType: 'application/json', text: Buffer.from(bytes()).toString('utf8') },
    ],
  });
}

function requireThunk<T>(value: unknown, name: string): () => T {
  if (typeof value !== 'function') {
    throw new ConnectomeError('PALISADE_ERR_INVALID_OPTION', `option "${name}" must be a function`);
  }
  return value as () => T;
}
