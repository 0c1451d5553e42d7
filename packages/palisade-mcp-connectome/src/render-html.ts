/**
 * The connectome as one self-contained HTML page: the declared graph, the observed graph with
 * its weights and the diff coloured by class, with a search box and a reach query. Nothing is
 * fetched: the style, the script and the data are inline, no URL appears in the page, and the
 * Content-Security-Policy allows exactly the page's own style and script by their SHA-256
 * (`default-src 'none'`), so even an injected element could load or run nothing.
 *
 * The model goes in as JSON inside `<script type="application/json">`, which the browser never
 * runs; `<`, `>`, `&`, U+2028 and U+2029 are written as `\u` escapes there, so no name can close
 * the element (`</script>`), open a comment, or end a line for an older parser. Reach is
 * computed by the page's script on the embedded edges, with the library's breadth-first order.
 */
import { createHash } from 'node:crypto';
import { PAGE_SCRIPT, PAGE_STYLE } from './render-html-page.js';
import { DIFF_CLASSES, type RenderModel } from './render-model.js';

/** `value` as JSON that is safe inside a `<script>` element: no `<`, `>`, `&`, U+2028, U+2029. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

function cspHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** The Content-Security-Policy the page carries, allowing its own inline style and script. */
export const PAGE_CSP = [
  "default-src 'none'",
  `script-src ${cspHash(PAGE_SCRIPT)}`,
  `style-src ${cspHash(PAGE_STYLE)}`,
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

export function renderHtml(model: RenderModel): string {
  const legend = DIFF_CLASSES.map((c) => `<li><span class="c-${c}"></span>${c}</li>`).join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${PAGE_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Palisade connectome</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<header>
<h1>Palisade connectome</h1>
<nav id="views" aria-label="views"></nav>
<label>Search <input id="search" type="search" autocomplete="off"></label> <span id="matches"></span>
<form id="reach">
<label>From <input id="reach-from" list="node-ids" autocomplete="off" required></label>
<label>To <input id="reach-to" list="node-ids" autocomplete="off" required></label>
<label>Avoiding <select id="reach-avoid" multiple size="3"></select></label>
<button type="submit">Reach</button>
</form>
<output id="reach-result"></output>
<p id="summary"></p>
<ul id="legend">${legend}<li>dashed: observed</li></ul>
</header>
<datalist id="node-ids"></datalist>
<svg id="canvas" role="img" aria-label="connectome graph">
<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M0,0L10,5L0,10z" fill="#555"/></marker></defs>
<g id="edges"></g><g id="nodes"></g>
</svg>
<script type="application/json" id="connectome-data">${scriptJson(model)}</script>
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`;
}
