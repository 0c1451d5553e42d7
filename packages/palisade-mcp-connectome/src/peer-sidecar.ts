/**
 * A peer's sidecar: the weights of the peer's graph, sent beside its canonical bytes. It is wire
 * input as the graph is, so it is read by the same reader under the same bound
 * (`MAX_PEER_GRAPH_BYTES`, `peer-json.ts`), its envelope is checked, and every weight must name an
 * edge of that peer's own graph, once: a weight on an edge the peer never asserted would be drawn
 * on nothing, or on another member's edge. Unlike the graph, the sidecar is not held to
 * canonical bytes: no hash or signature covers it, and the original writes integral floats
 * (`2.0`) that JavaScript reads as integers, so a byte-for-byte rule would refuse honest
 * sidecars. Every refusal names the peer and says "sidecar".
 */
import { ConnectomeError } from './errors.js';
import { createGraph, type Graph } from './graph.js';
import { admitWeight, type LabelValue } from './label-value.js';
import { isPlainObject } from './options.js';
import { readPeerJson } from './peer-json.js';
import { isCurrentSchema } from './schema-version.js';
import { nfc } from './text-order.js';
import { EDGE_KINDS, isMember, PROVENANCES, SCHEMA_VERSION } from './vocabulary.js';

const ITEM_KEYS = ['from', 'kind', 'provenance', 'to', 'weight'];

/** The peer's graph with its sidecar's weights laid on its edges. */
export function readPeerSidecar(process: string, bytes: Uint8Array, graph: Graph): Graph {
  const who = `${JSON.stringify(process)} sidecar`;
  const refuse = (what: string): ConnectomeError =>
    new ConnectomeError('PALISADE_ERR_CONNECTOME_SIDECAR', `peer ${who}: ${what}`);
  const value = readPeerJson(bytes, who);
  if (!isPlainObject(value)) throw refuse('is not a JSON object');
  const stray = Object.keys(value).find((key) => key !== 'schema_version' && key !== 'weights');
  if (stray !== undefined) throw refuse(`has the unknown key ${JSON.stringify(stray)}`);
  if (!isCurrentSchema(value['schema_version'], `peer ${who}`)) {
    throw refuse(
      `has schema_version ${JSON.stringify(value['schema_version'])}; this reads ${SCHEMA_VERSION}`,
    );
  }
  const items = value['weights'];
  if (!Array.isArray(items)) throw refuse('weights must be an array');

  const edgeKey = (from: string, to: string, kind: string, provenance: string): string =>
    JSON.stringify([nfc(from), nfc(to), kind, provenance]);
  const held = new Set(graph.edges.map((e) => edgeKey(e.from, e.to, e.kind, e.provenance)));
  const weights = new Map<string, LabelValue>();
  for (const [i, item] of items.entries()) {
    const where = `weights[${i}]`;
    if (!isPlainObject(item)) throw refuse(`${where} must be an object`);
    const keys = Object.keys(item);
    const unknown = keys.find((key) => !ITEM_KEYS.includes(key));
    if (unknown !== undefined) throw refuse(`${where} has the unknown key ${JSON.stringify(unknown)}`);
    const { from, to, kind, provenance } = item;
    if (typeof from !== 'string' || typeof to !== 'string' || !isMember(EDGE_KINDS, kind)) {
      throw refuse(`${where} must name an edge by from, to and kind`);
    }
    if (!isMember(PROVENANCES, provenance)) throw refuse(`${where}.provenance must be declared or observed`);
    if (!Object.hasOwn(item, 'weight')) throw refuse(`${where} has no weight`);
    const key = edgeKey(from, to, kind, provenance);
    if (!held.has(key)) {
      throw refuse(
        `${where} weighs ${JSON.stringify(from)} -${kind}/${provenance}-> ${JSON.stringify(to)}, which the peer's graph does not hold`,
      );
    }
    if (weights.has(key)) throw refuse(`${where} weighs an edge an earlier item already weighs`);
    try {
      weights.set(key, admitWeight(item['weight'], `${where}.weight`));
    } catch (error) {
      if (error instanceof ConnectomeError)
        throw new ConnectomeError(error.code, `peer ${who}: ${error.message}`);
      throw error;
    }
  }
  return createGraph({
    nodes: graph.nodes,
    edges: graph.edges.map((e) => {
      const weight = weights.get(edgeKey(e.from, e.to, e.kind, e.provenance));
      return weight === undefined ? e : { ...e, weight };
    }),
  });
}
