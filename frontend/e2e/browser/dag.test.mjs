// The episode DAG of a real long session (the 453-request pi session, its
// episodes inferred) in a real browser against `ctxscope serve`: it opens
// fitted to the panel, zooms and pans, its legend draws what the graph
// draws, and a jump centres its target.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, screenshot, startServe } from '../lib.mjs';
import { openPath, piLarge } from '../debugger-helpers.mjs';

let server, browser, page;
const errors = [];

before(async () => {
  server = await startServe();
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(server.url.href);
  await page.waitForSelector('[data-testid=timeline] canvas');
  await openPath(page, piLarge);
  await page.keyboard.press('G');
  await page.click('[data-testid=panel-graph]');
  await page.waitForSelector('[data-testid=episode-graph] .node');
});
after(async () => {
  await browser?.close();
  server?.stop();
  assert.deepEqual(errors, []);
});

// inView returns how many nodes lie wholly inside the graph's panel, and
// how many there are.
const inView = () => page.evaluate(() => {
  const c = document.querySelector('[data-testid=episode-graph] .canvas').getBoundingClientRect();
  const nodes = [...document.querySelectorAll('[data-testid=episode-graph] .node rect')].map((r) => r.getBoundingClientRect());
  const inside = nodes.filter((r) => r.left >= c.left - 1 && r.right <= c.right + 1 && r.top >= c.top - 1 && r.bottom <= c.bottom + 1);
  return { inside: inside.length, total: nodes.length };
});

test('the DAG opens fitted to its panel', async () => {
  const v = await inView();
  assert.ok(v.total > 30, `a big DAG: ${v.total} nodes`);
  assert.equal(v.inside, v.total, 'every node is in view');
  assert.equal(await page.getAttribute('[data-testid=episode-graph]', 'data-zoom'), '100');
  await screenshot(page, 'debugger-dag-fitted.png');
});

test('zoom and pan, then fit again', async () => {
  await page.click('[aria-label="zoom in (+)"]');
  await page.click('[aria-label="zoom in (+)"]');
  assert.ok(Number(await page.getAttribute('[data-testid=episode-graph]', 'data-zoom')) > 150);
  assert.ok((await inView()).inside < (await inView()).total, 'zoomed in, some nodes are out of view');
  const box = await page.locator('[data-testid=episode-graph] .canvas svg').boundingBox();
  const before = await page.getAttribute('[data-testid=episode-graph] .canvas svg', 'viewBox');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 - 120, box.y + box.height / 2 - 40, { steps: 5 });
  await page.mouse.up();
  assert.notEqual(await page.getAttribute('[data-testid=episode-graph] .canvas svg', 'viewBox'), before, 'dragging pans');
  await page.mouse.wheel(0, -300);
  await page.click('[data-testid=dag-fit]');
  assert.equal(await page.getAttribute('[data-testid=episode-graph]', 'data-zoom'), '100');
});

test('the legend draws what the graph draws', async () => {
  const legend = await page.$$eval('[data-testid=episode-graph] .legend rect', (rs) => rs.map((r) => `${r.getAttribute('stroke-dasharray') ?? ''}|${r.getAttribute('opacity')}`));
  const nodes = await page.$$eval('[data-testid=episode-graph] .node', (gs) => gs.map((g) => `${g.querySelector('rect').getAttribute('stroke-dasharray') ?? ''}|${g.getAttribute('opacity')}`));
  for (const n of new Set(nodes)) assert.ok(legend.includes(n) || n.startsWith('6 3|'), `a node drawn ${n} has a legend entry (${legend.join(', ')})`);
});

test('a jump centres its target', async () => {
  await page.click('[aria-label="zoom in (+)"]');
  await page.click('[aria-label="zoom in (+)"]');
  await page.click('[aria-label="zoom in (+)"]');
  // The last node is far from the first: select it through the keyboard.
  const last = page.locator('[data-testid=episode-graph] .node').last();
  await last.focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => {
    const c = document.querySelector('[data-testid=episode-graph] .canvas').getBoundingClientRect();
    const nodes = document.querySelectorAll('[data-testid=episode-graph] .node rect');
    const r = nodes[nodes.length - 1].getBoundingClientRect();
    return Math.abs((r.left + r.right) / 2 - (c.left + c.right) / 2) < 20 && Math.abs((r.top + r.bottom) / 2 - (c.top + c.bottom) / 2) < 20;
  });
  await page.click('[data-testid=dag-fit]');
});
