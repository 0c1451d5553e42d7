/**
 * The connectome as Graphviz DOT: every node and edge of the declared and observed graphs, once,
 * observed edges dashed, diff classes coloured, weights in edge labels.
 *
 * Every id and label is written as a DOT quoted string. DOT's own grammar escapes only `"`, but
 * Graphviz then reads labels as escString, where `\` starts an escape (`\N`, `\l`, ...), and a
 * trailing `\` would swallow the closing quote; so `\` is doubled, `"` escaped, and line breaks
 * written as `\n` / `\r`. The mapping is injective, so two ids stay two ids. DOT has no escape
 * for the other C0 controls or DEL (and NUL ends a string in Graphviz's C reader), so a name
 * holding one is refused by name rather than dropped or replaced.
 */
import { ConnectomeError } from './errors.js';
import { combinedView, type DiffClass, type RenderModel } from './render-model.js';

/** Stroke colour per diff class; an edge outside any diff is drawn in `#333333`. */
export const DIFF_CLASS_COLOURS: Readonly<Record<DiffClass, string>> = Object.freeze({
  declared_and_observed: '#2e7d32',
  declared_never_observed: '#9e9e9e',
  observed_but_undeclared: '#c62828',
  changed_sign: '#6a1b9a',
});

const DOT_ESCAPES: Readonly<Record<string, string>> = { '\\': '\\\\', '"': '\\"', '\n': '\\n', '\r': '\\r' };

// C0 controls but tab, LF and CR, and DEL.
const DOT_UNWRITABLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** `value` as a DOT quoted string; `where` names it in a refusal. */
export function dotString(value: string, where: string): string {
  const bad = DOT_UNWRITABLE.exec(value);
  if (bad !== null) {
    throw new ConnectomeError(
      'PALISADE_ERR_CONNECTOME_DOT_CHAR',
      `${where} holds ${codePoint(bad[0])}, which a DOT string cannot carry; it is refused rather than dropped`,
    );
  }
  return `"${value.replace(/[\\"\n\r]/g, (c) => DOT_ESCAPES[c]!)}"`;
}

export function renderDot(model: RenderModel): string {
  const { nodes, edges } = combinedView(model);
  const lines = [
    'digraph "connectome" {',
    '  graph [rankdir="LR"];',
    '  node [shape="box", style="rounded", fontname="Helvetica"];',
    '  edge [fontname="Helvetica", fontsize="10"];',
  ];
  for (const n of nodes) {
    const where = `node ${JSON.stringify(n.id)}`;
    const attrs = [
      `label=${dotString(n.id, `${where} id`)}`,
      `kind=${dotString(n.kind ?? 'unknown', where)}`,
      `level=${dotString(n.level ?? 'unknown', where)}`,
      `labels=${dotString(n.labels, `${where} labels`)}`,
    ];
    lines.push(`  ${dotString(n.id, `${where} id`)} [${attrs.join(', ')}];`);
  }
  for (const e of edges) {
    const where = `edge ${JSON.stringify(e.from)} -> ${JSON.stringify(e.to)}`;
    const text = e.count === null ? e.kind : `${e.kind} x${e.count}`;
    const attrs = [
      `label=${dotString(text, where)}`,
      `kind=${dotString(e.kind, where)}`,
      `provenance=${dotString(e.provenance ?? 'unknown', where)}`,
      `sign=${dotString(e.sign ?? 'unset', where)}`,
      `style=${dotString(e.provenance === 'observed' ? 'dashed' : 'solid', where)}`,
      `color=${dotString(e.diff_class === null ? '#333333' : DIFF_CLASS_COLOURS[e.diff_class], where)}`,
    ];
    if (e.diff_class !== null) attrs.push(`diff_class=${dotString(e.diff_class, where)}`);
    if (e.weight !== null) attrs.push(`weight_json=${dotString(e.weight, `${where} weight`)}`);
    lines.push(`  ${dotString(e.from, where)} -> ${dotString(e.to, where)} [${attrs.join(', ')}];`);
  }
  lines.push('}', '');
  return lines.join('\n');
}

function codePoint(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}
