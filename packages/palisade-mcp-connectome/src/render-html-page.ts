/**
 * The HTML view's own style and script, inlined into every page and allowed by hash in its CSP.
 * The script reads the model from the page's JSON block and writes every name with
 * `textContent` or `setAttribute`, never as markup, so a name is always text. It uses no
 * template literals (this file holds it in one) and no network, storage or `eval`.
 */

export const PAGE_STYLE = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 0; color: #222; }
header { padding: 8px 16px; border-bottom: 1px solid #ccc; background: #fafafa; }
header h1 { font-size: 16px; margin: 0 0 6px; }
header form, header label { display: inline-block; margin: 4px 12px 4px 0; vertical-align: top; }
nav button[aria-pressed="true"] { font-weight: bold; }
#legend { list-style: none; padding: 0; margin: 4px 0; }
#legend li { display: inline-block; margin-right: 14px; }
#legend span { display: inline-block; width: 24px; height: 4px; vertical-align: middle; margin-right: 4px; }
#reach-result { display: block; font-family: monospace; white-space: pre-wrap; }
svg { display: block; margin: 8px; }
.node rect { fill: #fff; stroke: #555; }
.node text { font: 12px monospace; fill: #111; }
.node.kind-server rect { fill: #e3f2fd; }
.node.kind-tool rect { fill: #fff8e1; }
.node.kind-module rect { fill: #f1f8e9; }
.node.match rect { stroke: #1565c0; stroke-width: 3; }
.dim { opacity: 0.25; }
.edge path { fill: none; stroke: #333; stroke-width: 1.5; }
.edge text { font: 11px monospace; fill: #333; }
.edge.observed path { stroke-dasharray: 6 3; }
.c-declared_and_observed path, #legend .c-declared_and_observed { stroke: #2e7d32; background: #2e7d32; }
.c-declared_never_observed path, #legend .c-declared_never_observed { stroke: #9e9e9e; background: #9e9e9e; }
.c-observed_but_undeclared path, #legend .c-observed_but_undeclared { stroke: #c62828; background: #c62828; }
.c-changed_sign path, #legend .c-changed_sign { stroke: #6a1b9a; background: #6a1b9a; }
.node.path rect { stroke: #ff6f00; stroke-width: 4; }
.edge.path path { stroke: #ff6f00; stroke-width: 4; }
`;

export const PAGE_SCRIPT = `
'use strict';
(function () {
  const data = JSON.parse(document.getElementById('connectome-data').textContent);
  const $ = (id) => document.getElementById(id);
  const svg = $('canvas');
  const ROW = 44, H = 30, GAP = 80;
  let current = null;

  function el(name, attrs, parent) {
    const e = document.createElementNS(svg.namespaceURI, name);
    for (const key of Object.keys(attrs)) e.setAttribute(key, String(attrs[key]));
    parent.appendChild(e);
    return e;
  }

  function shorten(text, max) {
    const chars = Array.from(text);
    return chars.length > max ? chars.slice(0, max - 1).join('') + '\\u2026' : text;
  }

  // A node's column is its breadth-first depth from the nodes nothing points to; nodes reached
  // only through a cycle start a column 0 of their own.
  function layout(view) {
    const incoming = new Map(view.nodes.map((n) => [n.id, 0]));
    const out = new Map(view.nodes.map((n) => [n.id, []]));
    for (const e of view.edges) {
      if (e.from !== e.to) incoming.set(e.to, incoming.get(e.to) + 1);
      out.get(e.from).push(e.to);
    }
    const depth = new Map();
    const visit = (roots) => {
      const queue = roots.filter((id) => !depth.has(id));
      for (const id of queue) depth.set(id, 0);
      for (let i = 0; i < queue.length; i++) {
        for (const next of out.get(queue[i])) {
          if (depth.has(next)) continue;
          depth.set(next, depth.get(queue[i]) + 1);
          queue.push(next);
        }
      }
    };
    visit(view.nodes.filter((n) => incoming.get(n.id) === 0).map((n) => n.id));
    for (const n of view.nodes) visit([n.id]);
    const longest = Math.max(8, ...view.nodes.map((n) => Math.min(60, Array.from(n.id).length)));
    const width = Math.round(longest * 7.3 + 16);
    const rows = [];
    const pos = new Map();
    for (const n of view.nodes) {
      const d = depth.get(n.id);
      rows[d] = rows[d] || 0;
      pos.set(n.id, { x: 20 + d * (width + GAP), y: 20 + rows[d] * ROW });
      rows[d]++;
    }
    return { pos, width, columns: rows.length, height: Math.max(1, ...rows.map((r) => r || 0)) * ROW + 40 };
  }

  function draw(view) {
    const { pos, width, columns, height } = layout(view);
    svg.setAttribute('width', String(40 + columns * (width + GAP)));
    svg.setAttribute('height', String(height));
    const edgeLayer = $('edges');
    const nodeLayer = $('nodes');
    edgeLayer.replaceChildren();
    nodeLayer.replaceChildren();
    const nodeEls = new Map();
    const edgeEls = [];
    for (const e of view.edges) {
      const a = pos.get(e.from), b = pos.get(e.to);
      const x1 = a.x + width, y1 = a.y + H / 2, x2 = b.x, y2 = b.y + H / 2, mid = (x1 + x2) / 2;
      let cls = 'edge';
      if (e.diff_class) cls += ' c-' + e.diff_class;
      if (e.provenance === 'observed') cls += ' observed';
      const g = el('g', { class: cls }, edgeLayer);
      const d = 'M' + x1 + ',' + y1 + ' C' + (mid + 40) + ',' + y1 + ' ' + (mid - 40) + ',' + y2 + ' ' + x2 + ',' + y2;
      el('path', { d: d, 'marker-end': 'url(#arrow)' }, g);
      if (e.count !== null) el('text', { x: mid, y: (y1 + y2) / 2 - 4 }, g).textContent = '\\u00d7' + e.count;
      const facts = [e.from + ' -> ' + e.to, e.kind];
      if (e.provenance) facts.push(e.provenance);
      if (e.sign) facts.push('sign ' + e.sign);
      if (e.diff_class) facts.push(e.diff_class);
      if (e.note) facts.push(e.note);
      if (e.weight) facts.push('weight ' + e.weight);
      el('title', {}, g).textContent = facts.join('\\n');
      edgeEls.push(g);
    }
    for (const n of view.nodes) {
      const p = pos.get(n.id);
      const g = el('g', { class: 'node kind-' + (n.kind || 'unknown'), transform: 'translate(' + p.x + ',' + p.y + ')' }, nodeLayer);
      el('rect', { width: width, height: H, rx: 6 }, g);
      el('text', { x: 8, y: 19 }, g).textContent = shorten(n.id, 60);
      el('title', {}, g).textContent = n.id + '\\n' + (n.kind || 'unknown kind') + ' at ' + (n.level || 'unknown level') + '\\nlabels ' + n.labels;
      nodeEls.set(n.id, g);
    }
    current = { view: view, nodeEls: nodeEls, edgeEls: edgeEls };
    const ids = $('node-ids');
    const avoid = $('reach-avoid');
    ids.replaceChildren();
    avoid.replaceChildren();
    for (const n of view.nodes) {
      const option = document.createElement('option');
      option.value = n.id;
      ids.appendChild(option);
      const choice = document.createElement('option');
      choice.value = n.id;
      choice.textContent = n.id;
      avoid.appendChild(choice);
    }
    $('summary').textContent = view.name + ' view: ' + view.nodes.length + ' nodes, ' + view.edges.length + ' edges' +
      (data.window === null ? '' : '; diff window ' + data.window);
    $('reach-result').textContent = '';
    search();
  }

  function search() {
    const q = $('search').value.trim().toLowerCase();
    let hits = 0;
    for (const n of current.view.nodes) {
      const hit = q !== '' && (n.id + ' ' + (n.kind || '') + ' ' + n.labels).toLowerCase().includes(q);
      const g = current.nodeEls.get(n.id);
      g.classList.toggle('match', hit);
      g.classList.toggle('dim', q !== '' && !hit);
      if (hit) hits++;
    }
    $('matches').textContent = q === '' ? '' : hits + (hits === 1 ? ' match' : ' matches');
  }

  // The library's reachableWithout on the drawn view: breadth-first over the edges in the
  // graph's canonical order, so the witness is a shortest path and the one the CLI prints.
  function reach(view, from, to, avoid) {
    if (avoid.has(from) || avoid.has(to)) return null;
    if (from === to) return { nodes: [to], edges: [] };
    const out = new Map(view.nodes.map((n) => [n.id, []]));
    view.edges.forEach((e, i) => {
      if (!avoid.has(e.from) && !avoid.has(e.to)) out.get(e.from).push(i);
    });
    const via = new Map([[from, -1]]);
    const queue = [from];
    for (let head = 0; head < queue.length; head++) {
      for (const i of out.get(queue[head])) {
        const next = view.edges[i].to;
        if (via.has(next)) continue;
        via.set(next, i);
        if (next === to) {
          const edges = [];
          for (let v = to; v !== from; v = view.edges[via.get(v)].from) edges.unshift(via.get(v));
          return { nodes: [from].concat(edges.map((j) => view.edges[j].to)), edges: edges };
        }
        queue.push(next);
      }
    }
    return null;
  }

  $('reach').addEventListener('submit', (event) => {
    event.preventDefault();
    for (const g of document.querySelectorAll('.path')) g.classList.remove('path');
    const from = $('reach-from').value;
    const to = $('reach-to').value;
    const avoid = new Set(Array.from($('reach-avoid').selectedOptions, (o) => o.value));
    const unknown = [from, to].filter((id) => !current.nodeEls.has(id));
    if (unknown.length > 0) {
      $('reach-result').textContent = 'not a node of this view: ' + unknown.join(', ');
      return;
    }
    const witness = reach(current.view, from, to, avoid);
    const without = avoid.size === 0 ? '' : ' without crossing ' + Array.from(avoid).join(', ');
    if (witness === null) {
      $('reach-result').textContent = 'not reachable' + without;
      return;
    }
    for (const id of witness.nodes) current.nodeEls.get(id).classList.add('path');
    for (const i of witness.edges) current.edgeEls[i].classList.add('path');
    $('reach-result').textContent = 'reachable' + without + ': ' + witness.nodes.join(' -> ');
  });

  $('search').addEventListener('input', search);
  for (const view of data.views) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = view.name;
    button.addEventListener('click', () => {
      for (const b of $('views').children) b.setAttribute('aria-pressed', String(b === button));
      draw(view);
    });
    $('views').appendChild(button);
  }
  $('views').firstElementChild.click();
})();
`;
