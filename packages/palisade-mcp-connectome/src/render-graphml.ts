/**
 * The connectome as GraphML: one directed graph holding every node and edge of the declared and
 * observed graphs once, each with its kind, level, labels, provenance, sign, weight and diff
 * class as `<data>`. GraphML wants node ids unique in the whole document, so the two graphs are
 * one `<graph>`, told apart by each edge's provenance.
 *
 * Text is XML-escaped (`&`, `<`, `>`, `"`, `'`), and tab, LF and CR are written as character
 * references so attribute-value normalisation cannot turn them into spaces. XML 1.0 cannot
 * carry the other C0 controls, a lone surrogate, U+FFFE or U+FFFF at all, not even as a
 * character reference, so a name holding one is refused by name rather than dropped.
 */
import { ConnectomeError } from './errors.js';
import { combinedView, type RenderModel } from './render-model.js';

// XML 1.0 §2.2 Char, negated: with the `u` flag a lone surrogate is a code point of its own, in
// no range here, so it matches too.
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

const XML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};

/** `value` escaped for XML text and attribute values; `where` names it in a refusal. */
export function xmlText(value: string, where: string): string {
  const bad = NOT_XML_CHAR.exec(value);
  if (bad !== null) {
    throw new ConnectomeError(
      'PALISADE_ERR_CONNECTOME_XML_CHAR',
      `${where} holds U+${bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}, which XML 1.0 cannot carry; it is refused rather than dropped`,
    );
  }
  return value.replace(/[&<>"'\t\n\r]/g, (c) => XML_ESCAPES[c]!);
}

const KEYS: readonly (readonly [id: string, owner: 'node' | 'edge', name: string])[] = [
  ['n_kind', 'node', 'kind'],
  ['n_level', 'node', 'level'],
  ['n_labels', 'node', 'labels'],
  ['e_kind', 'edge', 'kind'],
  ['e_provenance', 'edge', 'provenance'],
  ['e_sign', 'edge', 'sign'],
  ['e_weight', 'edge', 'weight'],
  ['e_diff_class', 'edge', 'diff_class'],
];

export function renderGraphml(model: RenderModel): string {
  const { nodes, edges } = combinedView(model);
  const data = (key: string, value: string | null, where: string): string =>
    value === null ? '' : `<data key="${key}">${xmlText(value, where)}</data>`;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<graphml xmlns="http://graphml.graphdrawing.org/xmlns">',
    ...KEYS.map(
      ([id, owner, name]) => `  <key id="${id}" for="${owner}" attr.name="${name}" attr.type="string"/>`,
    ),
    '  <graph id="connectome" edgedefault="directed">',
  ];
  for (const n of nodes) {
    const where = `node ${JSON.stringify(n.id)}`;
    lines.push(
      `    <node id="${xmlText(n.id, `${where} id`)}">${data('n_kind', n.kind, where)}${data('n_level', n.level, where)}${data('n_labels', n.labels, `${where} labels`)}</node>`,
    );
  }
  edges.forEach((e, i) => {
    const where = `edge ${JSON.stringify(e.from)} -> ${JSON.stringify(e.to)}`;
    lines.push(
      `    <edge id="e${i}" source="${xmlText(e.from, where)}" target="${xmlText(e.to, where)}">${data('e_kind', e.kind, where)}${data('e_provenance', e.provenance, where)}${data('e_sign', e.sign, where)}${data('e_weight', e.weight, `${where} weight`)}${data('e_diff_class', e.diff_class, where)}</edge>`,
    );
  });
  lines.push('  </graph>', '</graphml>', '');
  return lines.join('\n');
}
