/**
 * Graphs for the renderer tests: a declared graph with a node named to close the page's script
 * element, its observed twin with weights, and the diff record of the two.
 */
import { createGraph, type Graph } from '../../src/graph.js';

/** A node id that would end a `<script>` element and open another if it were written as markup. */
export const MALICIOUS = '</script><script>alert(1)</script>';

export function renderDeclared(): Graph {
  return createGraph({
    nodes: [
      { id: 's/server', kind: 'server', level: 'server' },
      { id: 's/tool/read', kind: 'tool', level: 'server', labels: { title: 'Read "it" & <more>' } },
      { id: 's/tool/gate', kind: 'tool', level: 'server' },
      { id: MALICIOUS, kind: 'tool', level: 'server' },
      { id: 's/module/fs', kind: 'module', level: 'module' },
      { id: 's/module/net', kind: 'module', level: 'module' },
    ],
    edges: [
      { from: 's/server', to: 's/tool/read', kind: 'invoke', provenance: 'declared' },
      { from: 's/server', to: MALICIOUS, kind: 'invoke', provenance: 'declared' },
      { from: 's/tool/read', to: 's/tool/gate', kind: 'invoke', provenance: 'declared' },
      { from: 's/tool/gate', to: 's/module/fs', kind: 'invoke', provenance: 'declared' },
      { from: 's/tool/read', to: 's/module/net', kind: 'invoke', provenance: 'declared' },
      { from: MALICIOUS, to: 's/module/fs', kind: 'invoke', provenance: 'declared' },
    ],
  });
}

export function renderObserved(): Graph {
  return createGraph({
    nodes: renderDeclared().nodes,
    edges: [
      { from: 's/server', to: 's/tool/read', kind: 'invoke', provenance: 'observed', weight: { count: 7 } },
      { from: 's/tool/read', to: 's/module/fs', kind: 'invoke', provenance: 'observed', weight: 2 },
    ],
  });
}
