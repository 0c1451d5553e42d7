/**
 * The HTML view in a real browser: headless Chromium, the one shipped in the `@sparticuz/chromium`
 * npm package unless PALISADE_CHROMIUM names another (packages/palisade-mcp/test/support/chromium.ts), driven by
 * playwright-core. A browser that fails to start fails this test rather than skipping it: a skipped
 * browser test is an untested page.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium } from '../../palisade-mcp/test/support/chromium.js';
import { diffGraphs, encodeDiff } from '../src/diff.js';
import { reachableWithout } from '../src/reach.js';
import { renderHtml } from '../src/render-html.js';
import { renderModel } from '../src/render-model.js';
import { MALICIOUS, renderDeclared, renderObserved } from './cli/render-fixtures.js';

describe('the HTML view in headless Chromium', () => {
  let browser: Browser;
  let page: Page;
  let dir: string;
  const consoleErrors: string[] = [];
  const dialogs: string[] = [];
  const requests: string[] = [];

  beforeAll(async () => {
    const declared = renderDeclared();
    const observed = renderObserved();
    const diff = JSON.parse(
      Buffer.from(encodeDiff(diffGraphs(declared, observed, { window: { started_at: 'then' } }))).toString(),
    );
    dir = mkdtempSync(join(tmpdir(), 'palisade-render-'));
    const file = join(dir, 'connectome.html');
    writeFileSync(file, renderHtml(renderModel({ graph: declared, observed, diff })));
    browser = await launchChromium();
    page = await browser.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(error.message));
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(pathToFileURL(file).href);
    await page.waitForSelector('#nodes g.node');
  });

  afterAll(async () => {
    await browser?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  const drawnIds = () => page.$$eval('#nodes g.node > text', (texts) => texts.map((t) => t.textContent));

  test('the page loads with no console error and requests nothing but itself', () => {
    expect(consoleErrors).toEqual([]);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatch(/^file:\/\/.*connectome\.html$/);
  });

  test('every node of the declared graph is drawn', async () => {
    expect((await drawnIds()).sort()).toEqual(
      renderDeclared()
        .nodes.map((n) => n.id)
        .sort(),
    );
  });

  test('the node named </script><script>alert(1)</script> is drawn as text and runs nothing', async () => {
    expect(await drawnIds()).toContain(MALICIOUS);
    expect(dialogs).toEqual([]);
    expect(await page.locator('script').count()).toBe(2);
  });

  test('a reach query highlights the witness path the library finds', async () => {
    for (const avoid of [[], [MALICIOUS]]) {
      const witness = reachableWithout(renderDeclared(), 's/server', 's/module/fs', avoid)!;
      await page.fill('#reach-from', 's/server');
      await page.fill('#reach-to', 's/module/fs');
      await page.selectOption('#reach-avoid', avoid);
      await page.click('#reach button[type=submit]');
      const lit = await page.$$eval('#nodes g.node.path > text', (texts) => texts.map((t) => t.textContent));
      expect(lit.sort()).toEqual([...witness.nodes].sort());
      expect(await page.locator('#edges g.edge.path').count()).toBe(witness.edges.length);
      expect(await page.textContent('#reach-result')).toContain(witness.nodes.join(' -> '));
    }
    expect(consoleErrors).toEqual([]);
  });

  test('a gate on every path answers not reachable and lights nothing', async () => {
    await page.selectOption('#reach-avoid', ['s/tool/gate', MALICIOUS, 's/tool/read']);
    await page.click('#reach button[type=submit]');
    expect(await page.textContent('#reach-result')).toMatch(/^not reachable without crossing/);
    expect(await page.locator('.path').count()).toBe(0);
  });

  test('the search box marks the matching nodes and dims the rest', async () => {
    await page.fill('#search', 'gate');
    expect(await page.locator('#nodes g.node.match').count()).toBe(1);
    expect(await page.locator('#nodes g.node.dim').count()).toBe(5);
    expect(await page.textContent('#matches')).toBe('1 match');
    await page.fill('#search', '');
  });

  test('the observed view draws its weights and the diff view colours every class', async () => {
    await page.click('#views button:text-is("observed")');
    const weights = await page.$$eval('#edges g.edge > text', (texts) => texts.map((t) => t.textContent));
    expect(weights.sort()).toEqual(['\u00d72', '\u00d77']);
    await page.click('#views button:text-is("diff")');
    expect(await page.locator('#edges .c-declared_and_observed').count()).toBe(1);
    expect(await page.locator('#edges .c-declared_never_observed').count()).toBe(5);
    expect(await page.locator('#edges .c-observed_but_undeclared').count()).toBe(1);
    expect(await page.textContent('#summary')).toContain('diff window {"started_at":"then"}');
    expect(consoleErrors).toEqual([]);
  });
});
