// The session's memory tied to the eviction timeline, in a real browser
// against `ctxscope serve`, on the real pi session before its compaction:
// at a τ that evicts, the Memory panel draws the session's knowledge graph
// by state at the current request; clicking an evicted fact opens the
// debugger at the request that evicted it with its block marked; a
// look-back request shows what recall would bring back; and the facts of
// a block in the context are one key (m) away.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { artifacts, launchBrowser, screenshot, startServe } from '../lib.mjs';
import { openPath, piBeforeCompaction, step, waitContext } from '../debugger-helpers.mjs';

let server, browser, page;
const errors = [];

before(async () => {
  server = await startServe();
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1500, height: 1000 } });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(server.url.href);
  await page.waitForSelector('[data-testid=timeline] canvas');
  await openPath(page, piBeforeCompaction);
  await page.fill('[data-testid=tau-input]', '20000');
  await page.press('[data-testid=tau-input]', 'Enter');
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=eviction-count]')?.dataset.count) > 0);
  await page.click('[data-testid=panel-memory]');
  await page.waitForSelector('[data-testid=memory-fact]', { timeout: 60_000 });
});
after(async () => {
  await browser?.close();
  server?.stop();
  assert.deepEqual(errors, []);
});

test('at a small τ the timeline fits what the policy keeps, and y shows all', async () => {
  await page.waitForFunction(() => document.querySelector('[data-testid=timeline]')?.dataset.yClipped === 'true');
  assert.match(await page.textContent('[data-testid=y-clipped]'), /uncapped input \([\d.]+k at its peak\) runs above/);
  await page.click('[data-testid=y-toggle]');
  await page.waitForFunction(() => document.querySelector('[data-testid=timeline]')?.dataset.yClipped === 'false');
  await page.click('[data-testid=y-toggle]');
  await page.waitForFunction(() => document.querySelector('[data-testid=timeline]')?.dataset.yClipped === 'true');
});

test('the session graph shows facts by their state at the request', async () => {
  await page.keyboard.press('G');
  const n = Number(await page.textContent('[data-testid=request-count]'));
  await page.waitForFunction((n) => document.querySelector('[data-testid=request-detail]')?.textContent?.startsWith(`Request ${n} `), n);
  const counts = await page.evaluate(() => ({ ...document.querySelector('[data-testid=memory-counts]').dataset }));
  assert.ok(Number(counts.evicted) > 0, `evicted facts at the last request: ${JSON.stringify(counts)}`);
  assert.ok(Number(counts.context) > 0, 'facts in context at the last request');
  assert.ok(Number(await page.getAttribute('[data-testid=session-graph]', 'data-nodes')) > 50);
  // The request slider is the debugger's request.
  await page.fill('[data-testid=memory-slider]', '0');
  await waitContext(page, 1);
  const first = await page.evaluate(() => ({ ...document.querySelector('[data-testid=memory-counts]').dataset }));
  assert.equal(Number(first.evicted), 0, 'nothing is evicted at the first request');
  assert.ok(Number(first.pending) > Number(counts.pending), `more facts not read yet at the first request: ${JSON.stringify(first)}`);
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press('G');
  await waitContext(page, n);
  await screenshot(page, 'session-memory-graph.png');
  // A taller window for the README's picture of the panel alone.
  await page.setViewportSize({ width: 1500, height: 1500 });
  await page.waitForTimeout(300); // sigma redraws on resize
  mkdirSync(artifacts, { recursive: true });
  await page.locator('.right').screenshot({ path: join(artifacts, 'session-memory-panel.png') });
  await page.setViewportSize({ width: 1500, height: 1000 });
});

test('clicking an evicted fact opens its request with the block marked', async () => {
  await page.selectOption('[data-testid=memory-state-filter]', 'evicted');
  const fact = page.locator('[data-testid=memory-fact][data-state=evicted]').first();
  const label = await fact.textContent();
  const m = label.match(/evicted L(\d) at request (\d+)/);
  assert.ok(m, `the fact says where it was evicted: ${label}`);
  await fact.click();
  const k = Number(m[2]);
  await waitContext(page, k);
  assert.equal(await step(page), k);
  const row = page.locator('[data-testid=ctx-row][aria-selected=true]');
  await row.waitFor();
  assert.equal(await row.getAttribute('data-state'), 'evicted', 'the marked block is evicted at that request');
  assert.equal(await row.getAttribute('data-level'), m[1], 'by the level the fact names');
});

test('a look-back request shows what memory would bring back', async () => {
  await page.selectOption('[data-testid=memory-state-filter]', 'all');
  await page.locator('[data-testid=lookback-jump]').first().click();
  await page.waitForSelector('[data-testid=lookback]');
  const passages = await page.$$eval('[data-testid=recalled-passage]', (ps) => ps.map((p) => ({ target: p.dataset.target, text: p.querySelector('pre').textContent })));
  assert.ok(passages.length > 0, 'recall brought passages back');
  assert.ok(passages.every((p) => p.text.length > 0));
  const recovered = await page.getAttribute('[data-testid=lookback]', 'data-recovered');
  assert.equal(recovered === 'true', passages.some((p) => p.target === 'true'), 'recovered exactly when the evicted read is among them');
  await screenshot(page, 'session-memory-lookback.png');
});

test('the facts of a block are one key away', async () => {
  await page.click('[data-testid=filter-all]');
  const call = page.locator('[data-testid=ctx-row][data-type=tool_call]').first();
  await call.click();
  await page.keyboard.press('m');
  await page.waitForSelector('[data-testid=memory-filter]');
  const msg = await call.getAttribute('data-msg');
  assert.match(await page.textContent('[data-testid=memory-filter]'), new RegExp(`message #${msg}`));
  const facts = await page.$$('[data-testid=memory-fact]');
  assert.ok(facts.length > 0, 'a tool call has facts');
});

test('the τ sweep and the compare view measure paper+memory', async () => {
  await page.click('[data-testid=panel-sweep]');
  await page.waitForSelector('[data-testid=sweep-memory-row]', { timeout: 120_000 });
  const rows = await page.$$eval('[data-testid=sweep-memory-row]', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
  assert.ok(rows.length >= 2, `paper+memory at several budgets: ${JSON.stringify(rows)}`);
  for (const [, paper, reserved, avoided, left] of rows) {
    assert.equal(Number(left), Number(reserved) - Number(avoided), 'look-backs left = at τ − B less those avoided');
    assert.ok(Number(paper) >= 0);
  }
  await page.selectOption('[data-testid=sweep-metric]', 'lookBack');
  await page.waitForFunction(() => document.querySelector('[data-testid=sweep]')?.textContent?.includes('paper+memory'));
  await page.click('[data-testid=panel-compare]');
  await page.selectOption('[data-testid=compare-policy]', 'paper+memory');
  await page.waitForFunction(() => /avoided by recall/.test(document.querySelector('[data-testid=compare]')?.textContent ?? ''), null, { timeout: 60_000 });
  const b = await page.textContent('[data-testid=compare]');
  assert.match(b, /paper\+memory \(paper at τ − 500\)/);
  await screenshot(page, 'session-memory-compare.png');
});

test('what memory keeps of an evicted episode', async () => {
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press('G');
  await page.click('[data-testid=panel-graph]');
  const node = page.locator('[data-testid=episode-graph] .node[data-state=evicted]').first();
  await node.waitFor();
  await node.click();
  await page.click('[data-testid=episode-memory]');
  await page.waitForSelector('[data-testid=memory-episode]');
  const text = await page.textContent('[data-testid=memory-episode]');
  const m = text.match(/(\d+) facts? read from (\d+)/);
  assert.ok(m && Number(m[1]) > 0, `memory keeps facts of the episode: ${text}`);
  assert.match(await page.textContent('[data-testid=memory-filter]'), /episode .+ · evicted L\d/);
});

test('a passage of the session memory opens its block in the debugger', async () => {
  const key = await page.getAttribute('[data-testid=stats]', 'data-key');
  await page.click('[data-testid=tab-memory]');
  await page.click('[data-testid=msub-build]');
  await page.check('input[type=radio][value=session]');
  await page.selectOption('[data-testid=build-session]', key);
  await page.click('[data-testid=build-go]');
  await page.waitForFunction(() => /[#&]mem=/.test(location.hash) && /msub=graph/.test(location.hash), null, { timeout: 120_000 });
  await page.fill('[data-testid=entity-search]', 'main.ts');
  await page.locator('[data-testid=entity-match]').first().click();
  await page.locator('[data-testid=relation-toggle]').first().click();
  const open = page.locator('[data-testid=passage-open]').first();
  await open.waitFor();
  const passage = await page.locator('[data-testid=provenance-passage]').first().getAttribute('data-passage');
  const block = passage.match(/#(\d+)/)[1];
  await open.click();
  await page.waitForFunction(() => /tab=debugger/.test(location.hash) && !/[#&]msg=/.test(location.hash));
  const row = page.locator('[data-testid=ctx-row][aria-selected=true]');
  await row.waitFor();
  assert.ok(Number(await row.getAttribute('data-msg')) >= 0);
  assert.equal(await row.getAttribute('data-block'), block, `the block passage ${passage} was read from is marked`);
  assert.equal(await page.getAttribute('[data-testid=panel-memory]', 'aria-selected'), 'true', 'the Memory panel is beside it');
});
