// The session debugger in a real browser against `ctxscope serve`, on a
// real Claude Code session: its biggest subagent thread (53 requests,
// peak 20.5k tokens) replayed with inferred episodes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, screenshot, startServe } from '../lib.mjs';
import { claudeSession, openPath, scrubTimeline, step, urlSettled, waitContext, waitStep } from '../debugger-helpers.mjs';

let server, browser, page;
const errors = [];

before(async () => {
  server = await startServe();
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1400, height: 900 }, acceptDownloads: true });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(server.url.href);
  await page.waitForSelector('[data-testid=timeline] canvas');
  await openPath(page, claudeSession);
  await page.selectOption('[data-testid=thread]', '5');
  await page.waitForFunction(() => document.querySelector('[data-testid=request-count]')?.textContent === '53');
  // Sessions without delimiter calls switch to inferred episodes.
  await page.waitForFunction(() => document.querySelector('[data-testid=episodes]')?.value === 'inferred');
  await page.fill('[data-testid=tau-input]', '8000');
  await page.press('[data-testid=tau-input]', 'Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid=timeline]')?.dataset.budget === '8000');
  await page.keyboard.press('Escape');
});
after(async () => {
  await browser?.close();
  server?.stop();
});

const evictionCount = () => page.getAttribute('[data-testid=eviction-count]', 'data-count').then(Number);

test('keyboard steps through requests and evictions', async () => {
  await page.keyboard.press('g');
  await waitStep(page, 1);
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await waitStep(page, 3);
  await page.keyboard.press('k');
  await waitStep(page, 2);
  await page.keyboard.press('G');
  await waitStep(page, 53);
  await page.keyboard.press('g');
  await page.keyboard.press(']');
  const first = await step(page);
  assert.ok(first > 1, `] moved to the first eviction, at request ${first}`);
  await page.keyboard.press(']');
  const second = await step(page);
  assert.ok(second > first, `] again: ${second} after ${first}`);
  await page.keyboard.press('[');
  await waitStep(page, first);
  // ? shows the shortcuts, Escape closes them.
  await page.keyboard.press('?');
  await page.waitForSelector('[data-testid=help]');
  await page.keyboard.press('Escape');
  await page.waitForSelector('[data-testid=help]', { state: 'detached' });
});

test('stepping and scrubbing move the cursor and redraw nothing', async () => {
  // A chart just built (here by a reload) must not redraw at the first
  // step: it used to, the drawing having read the step (at paper scale a
  // frame of about 50 ms at the start of a scrub).
  const draws = () => page.evaluate(() => window.__ctxscopePerf?.draws ?? 0);
  await urlSettled(page);
  await page.reload();
  await page.waitForFunction(() => document.querySelector('[data-testid=timeline]')?.dataset.budget === '8000');
  await page.waitForFunction(() => (window.__ctxscopePerf?.draws ?? 0) > 0);
  await page.waitForTimeout(500);
  const drawn = await draws();
  await page.keyboard.press('g');
  await waitStep(page, 1);
  await page.keyboard.press('j');
  await waitStep(page, 2);
  await scrubTimeline(page, true, 20);
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=timeline]')?.getAttribute('aria-valuenow')) > 45);
  await page.waitForTimeout(300);
  assert.equal(await draws(), drawn, 'redraws of the timeline while stepping and scrubbing');
});

test('the context at an eviction shows the evicted tool output with its level', async () => {
  await page.keyboard.press('g');
  // Step with ] until a request whose own evictions stripped tool output
  // at level 3 (intermediate: reads and shell commands).
  let found = null;
  for (let i = 0; i < 12 && !found; i++) {
    await page.keyboard.press(']');
    const k = await step(page);
    await waitContext(page, k);
    found = await page.evaluate(() => {
      const evs = [...document.querySelectorAll('[data-testid=step-evictions] li')].map((li) => li.textContent);
      return evs.some((t) => t.includes('level 3')) ? evs : null;
    });
  }
  assert.ok(found, 'no request with a level-3 eviction was reached with ]');
  await page.click('[data-testid=filter-removed]');
  const row = page.locator('[data-testid=ctx-row][data-state=evicted][data-type=tool_result][data-level="3"]').first();
  await row.waitFor();
  const why = await row.locator('[data-testid=removal]').textContent();
  assert.match(why, /evicted at level 3 \(intermediate\)/);
  await row.click();
  await page.waitForSelector('[data-testid=block-detail]');
  assert.match(await page.textContent('[data-testid=detail-removal]'), /level 3/);
  await screenshot(page, 'debugger-context-eviction.png');
  await page.click('[data-testid=filter-all]');
});

test('a reload keeps the request, thread, policy and τ', async () => {
  const k = await step(page);
  await urlSettled(page);
  await page.reload();
  await page.waitForSelector('[data-testid=timeline] canvas');
  await waitStep(page, k);
  assert.equal(await page.textContent('[data-testid=request-count]'), '53');
  assert.equal(await page.getAttribute('[data-testid=timeline]', 'data-budget'), '8000');
});

test('dragging τ changes the evictions', async () => {
  const atTight = await evictionCount();
  const slider = page.locator('[data-testid=tau-slider]');
  const box = await slider.boundingBox();
  // Drag the thumb to the right end: the widest budget evicts least.
  await page.mouse.move(box.x + (box.width * 8000) / Number(await slider.getAttribute('max')), box.y + box.height / 2);
  await page.mouse.down();
  for (let i = 1; i <= 10; i++) await page.mouse.move(box.x + box.width * (0.4 + 0.06 * i), box.y + box.height / 2);
  await page.mouse.up();
  await page.waitForFunction((b) => document.querySelector('[data-testid=timeline]')?.dataset.budget !== b, '8000');
  await page.waitForFunction((n) => Number(document.querySelector('[data-testid=eviction-count]')?.dataset.count) !== n, atTight);
  const atWide = await evictionCount();
  assert.ok(atWide < atTight, `τ widened: ${atWide} evictions, ${atTight} at τ=8000`);
  await screenshot(page, 'debugger-tau-wide.png');
  await page.fill('[data-testid=tau-input]', '8000');
  await page.press('[data-testid=tau-input]', 'Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid=timeline]')?.dataset.budget === '8000');
  await page.keyboard.press('Escape');
});

test('two policies side by side', async () => {
  await page.click('[data-testid=panel-compare]');
  await page.waitForSelector('[data-testid=compare]');
  await page.selectOption('[data-testid=compare-policy]', 'truncate');
  // Row 0 is the policy, row 8 all evictions.
  await page.waitForFunction(() => document.querySelector('[data-testid=compare-b-0]')?.textContent === 'truncate');
  await waitContext(page, await step(page));
  assert.equal(await page.textContent('[data-testid=compare-a-0]'), 'paper');
  const a = await page.textContent('[data-testid=compare-a-2]');
  const b = await page.textContent('[data-testid=compare-b-2]');
  assert.notEqual(a, b, 'paper and truncate send the same input tokens');
  await screenshot(page, 'debugger-compare.png');
});

test('the episode DAG follows the step and jumps to messages', async () => {
  await page.click('[data-testid=panel-graph]');
  await page.waitForSelector('[data-testid=episode-graph] .node');
  const states = await page.$$eval('[data-testid=episode-graph] .node', (ns) => ns.map((n) => n.getAttribute('data-state')));
  assert.ok(states.length >= 5, `${states.length} nodes`);
  await page.keyboard.press('G');
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=episode-graph] .node')].some((n) => n.getAttribute('data-state') === 'evicted'));
  await page.locator('[data-testid=episode-graph] .node[data-state=evicted]').first().click();
  await page.waitForSelector('[data-testid=node-evictions] button');
  await page.locator('[data-testid=node-evictions] button').first().click();
  await waitContext(page, await step(page));
  await screenshot(page, 'debugger-dag.png');
});

test('the τ sweep draws a curve per policy', async () => {
  await page.click('[data-testid=panel-sweep]');
  await page.waitForSelector('[data-testid=sweep] canvas');
  await waitContext(page, await step(page));
  const legend = await page.textContent('[data-testid=sweep]');
  for (const p of ['paper', 'pi-cwl', 'truncate', 'compact']) assert.ok(legend.includes(p), `${p} in the sweep legend`);
  await screenshot(page, 'debugger-sweep.png');
});

test('exports the replay as CSV and the timeline as PNG', async () => {
  const [csv] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-csv]')]);
  assert.match(csv.suggestedFilename(), /\.csv$/);
  const text = await (await csv.createReadStream()).toArray().then((c) => Buffer.concat(c).toString());
  assert.equal(text.trim().split('\n').length, 54);
  const [png] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-png]')]);
  assert.match(png.suggestedFilename(), /\.png$/);
  const [svg] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-chart-svg]')]);
  const chartSvg = await (await svg.createReadStream()).toArray().then((c) => Buffer.concat(c).toString());
  assert.match(chartSvg, /^<svg[^>]*>[\s\S]*τ = 8000[\s\S]*<\/svg>\s*$/);
  await page.click('[data-testid=panel-graph]');
  await page.waitForSelector('[data-testid=episode-graph] .node');
  const [dag] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-dag-svg]')]);
  const dagSvg = await (await dag.createReadStream()).toArray().then((c) => Buffer.concat(c).toString());
  assert.match(dagSvg, /<svg[\s\S]*<text[^>]*>(read|edit|run|search) [^<]+<\/text>[\s\S]*<\/svg>/, 'inferred episodes are named by what they did');
  assert.doesNotMatch(dagSvg, /t\d+-(expl|act)\d/, 'no counter names');
});

test('search inside the session jumps to the request and message', async () => {
  await page.keyboard.press('/');
  await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'search-input');
  await page.keyboard.type('TodoWrite');
  await page.keyboard.press('Enter');
  await page.waitForSelector('[data-testid=search-hit]');
  const hits = page.locator('[data-testid=search-hit]');
  const n = await hits.count();
  let jumped = false;
  for (let i = 0; i < n && !jumped; i++) {
    const where = await hits.nth(i).textContent();
    const m = where.match(/request (\d+)/);
    if (!m) continue;
    await hits.nth(i).click();
    await page.waitForFunction((k) => document.querySelector('[data-testid=timeline]')?.getAttribute('aria-valuenow') === k, m[1]);
    jumped = true;
  }
  assert.ok(jumped, 'no hit carried a request to jump to');
  assert.ok(await page.locator('[data-testid=search-hit] mark').count() > 0, 'matches are marked');
  await screenshot(page, 'debugger-search.png');
  assert.deepEqual(errors, []);
});
