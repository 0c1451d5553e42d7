import { describe, expect, test } from 'vitest';
import { diffGraphs, encodeDiff } from '../src/diff.js';
import { createGraph } from '../src/graph.js';
import { dotString, renderDot } from '../src/render-dot.js';
import { renderGraphml, xmlText } from '../src/render-graphml.js';
import { PAGE_CSP, renderHtml, scriptJson } from '../src/render-html.js';
import { renderModel } from '../src/render-model.js';
import { MALICIOUS, renderDeclared, renderObserved } from './cli/render-fixtures.js';
import { refusedWith as expectRefusal } from './refusal.js';

function oneNode(id: string) {
  return renderModel({ graph: createGraph({ nodes: [{ id, kind: 'tool', level: 'server' }], edges: [] }) });
}

describe('the HTML page', () => {
  const page = renderHtml(renderModel({ graph: renderDeclared(), observed: renderObserved() }));

  test('a node named </script><script>... stays inside the JSON block, escaped', {
    tags: ['threat-model'],
  }, () => {
    expect(page.split('<script').length - 1).toBe(2);
    expect(page).not.toContain(MALICIOUS);
    expect(page).toContain('\\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e');
  });

  test('the embedded JSON escapes <, >, &, U+2028 and U+2029 and still parses to the same value', () => {
    const value = { name: '<a>&\u2028\u2029' };
    const text = scriptJson(value);
    expect(text).toBe('{"name":"\\u003ca\\u003e\\u0026\\u2028\\u2029"}');
    expect(JSON.parse(text)).toEqual(value);
  });

  test('the page names no URL and carries a CSP allowing only its own style and script', {
    tags: ['threat-model'],
  }, () => {
    expect(page).not.toMatch(/https?:|\bsrc=|\bhref=|url\((?!#)|@import/);
    expect(page).toContain(`<meta http-equiv="Content-Security-Policy" content="${PAGE_CSP}">`);
    expect(PAGE_CSP).toMatch(/^default-src 'none'; script-src 'sha256-[A-Za-z0-9+/]+=*'; style-src 'sha256-/);
    expect(PAGE_CSP).not.toContain('unsafe');
  });
});

describe('DOT', () => {
  test('quotes and backslashes are escaped so an id cannot end its string early', () => {
    expect(dotString('a"b\\', 'x')).toBe('"a\\"b\\\\"');
    expect(dotString('line\nbreak\r', 'x')).toBe('"line\\nbreak\\r"');
  });

  test('a node named with quotes and a trailing backslash is one quoted id', () => {
    const dot = renderDot(oneNode('t"] ; evil [x="\\'));
    expect(dot).toContain('  "t\\"] ; evil [x=\\"\\\\" [label="t\\"] ; evil [x=\\"\\\\"');
  });

  test('a C0 control DOT cannot carry is refused by name', () => {
    expectRefusal(() => renderDot(oneNode('bell\u0007')), 'PALISADE_ERR_CONNECTOME_DOT_CHAR');
  });

  test('observed edges are dashed, weights labelled, diff classes coloured', () => {
    const diff = diffGraphs(renderDeclared(), renderObserved(), { window: { w: '1' } });
    const dot = renderDot(
      renderModel({
        graph: renderDeclared(),
        observed: renderObserved(),
        diff: JSON.parse(Buffer.from(encodeDiff(diff)).toString()),
      }),
    );
    expect(dot).toContain(
      '"s/tool/read" -> "s/module/fs" [label="invoke x2", kind="invoke", provenance="observed", sign="unset", style="dashed", color="#c62828", diff_class="observed_but_undeclared", weight_json="2"];',
    );
    expect(dot).toContain(
      '"s/tool/read" -> "s/module/net" [label="invoke", kind="invoke", provenance="declared"',
    );
    expect(dot).toContain('color="#9e9e9e", diff_class="declared_never_observed"');
  });
});

describe('GraphML', () => {
  test('markup characters are escaped as entities, tab, LF and CR as character references', () => {
    expect(xmlText('<a href="x">&\'\t\n\r', 'x')).toBe(
      '&lt;a href=&quot;x&quot;&gt;&amp;&apos;&#9;&#10;&#13;',
    );
  });

  test('the malicious node and a quoted label are escaped', () => {
    const xml = renderGraphml(renderModel({ graph: renderDeclared() }));
    expect(xml).toContain('<node id="&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;">');
    expect(xml).toContain('{&quot;title&quot;:&quot;Read \\&quot;it\\&quot; &amp; &lt;more&gt;&quot;}');
  });

  test.each([
    ['a C0 control', 'x\u0001', 'U+0001'],
    ['U+FFFE', 'x\uFFFE', 'U+FFFE'],
    ['U+FFFF', 'x\uFFFF', 'U+FFFF'],
  ])('%s in a node id is refused by name, never dropped', { tags: ['threat-model'] }, (_, id, named) => {
    const error = expectRefusal(() => renderGraphml(oneNode(id)), 'PALISADE_ERR_CONNECTOME_XML_CHAR');
    expect(error.message).toContain(named);
  });

  test('a lone surrogate is refused by name', () => {
    const error = expectRefusal(() => xmlText('a\uD800b', 'label'), 'PALISADE_ERR_CONNECTOME_XML_CHAR');
    expect(error.message).toBe(
      'label holds U+D800, which XML 1.0 cannot carry; it is refused rather than dropped',
    );
  });

  test('an astral character, tab, LF and CR are carried', () => {
    expect(xmlText('\u{1F600}\t', 'x')).toBe('\u{1F600}&#9;');
  });
});

describe('the render model', () => {
  test('a sidecar weight for an edge no graph holds is refused by name', () => {
    const sidecar = {
      schema_version: 3,
      weights: [{ from: 's/server', to: 's/module/fs', kind: 'invoke', provenance: 'observed', weight: 1 }],
    };
    expectRefusal(() => renderModel({ graph: renderDeclared(), sidecar }), 'PALISADE_ERR_CONNECTOME_SIDECAR');
  });

  test('a diff record putting one label in two classes is refused by name', () => {
    const label = { from: 'a', to: 'b', kind: 'invoke' };
    const diff = {
      schema_version: 3,
      window: {},
      coverage: {},
      classes: {
        declared_and_observed: [label],
        declared_never_observed: [label],
        observed_but_undeclared: [],
        changed_sign: [],
      },
    };
    expectRefusal(() => renderModel({ graph: renderDeclared(), diff }), 'PALISADE_ERR_CONNECTOME_INVALID');
  });
});
