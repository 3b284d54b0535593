// A session full of markup and script payloads renders as inert text in
// serve mode: no script runs, no payload becomes an element, nothing
// navigates or fetches, the text shows literally, and no request to a
// bound Go method carries any of it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { launchBrowser, screenshot, startServe } from '../lib.mjs';
import { beaconServer, hostileSession, payloadMarkers } from '../debugger-helpers.mjs';

let server, browser, beacon;
before(async () => {
  beacon = await beaconServer();
  server = await startServe();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  server?.stop();
  await beacon?.close();
});

// injected lists elements a payload would have created.
const injected = () => [...document.querySelectorAll(
  'script:not([src]), [onerror], [onload], [onmouseover], a[href^="javascript"], iframe, meta[http-equiv], #pwnlink, style:not([data-vite-dev-id])')]
  .filter((e) => !(e.tagName === 'STYLE' && e.closest('head'))).map((e) => e.outerHTML.slice(0, 80));

test('payloads stay text everywhere the debugger shows session content', { timeout: 120_000 }, async () => {
  const hostile = hostileSession(beacon.url);
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const bodies = [];
  const dialogs = [];
  page.on('request', (r) => { if (r.url().includes('/api/call/')) bodies.push({ url: r.url(), body: r.postData() ?? '' }); });
  page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss(); });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(server.url.href);
  await page.waitForSelector('[data-testid=timeline] canvas');
  const origin = new URL(page.url()).origin;

  // Upload under a hostile file name.
  await page.setInputFiles('[data-testid=upload-input]', { name: hostile.name, mimeType: 'application/x-ndjson', buffer: readFileSync(hostile.path) });
  await page.waitForFunction(() => document.querySelector('[data-testid=session-title]')?.textContent?.includes('<script>'));
  assert.ok((await page.textContent('[data-testid=session-title]')).startsWith(hostile.payloads[0]), 'the title shows the first user turn as text');

  // Every request, every block of its context, the whole of cut blocks.
  // Showing only what changed since the previous request, each request's
  // new blocks fit on screen.
  const shown = [];
  await page.click('[data-testid=filter-diff]');
  await page.keyboard.press('g');
  const n = Number(await page.textContent('[data-testid=request-count]'));
  for (let k = 1; k <= n; k++) {
    await page.waitForFunction((k) => document.querySelector('[data-testid=request-detail]')?.textContent?.startsWith(`Request ${k} `)
      && !document.querySelector('.updating'), k);
    const rows = page.locator('[data-testid=ctx-row]');
    const count = await rows.count();
    for (let i = 0; i < count; i++) {
      await rows.nth(i).click();
      shown.push(await page.textContent('[data-testid=block-text]'));
    }
    if (await page.locator('[data-testid=show-whole]').count()) await page.click('[data-testid=show-whole]');
    await page.keyboard.press('Escape');
    await page.keyboard.press('j');
  }
  const text = shown.join('\n');
  for (const p of hostile.payloads) assert.ok(text.includes(p), `the blocks show ${p.slice(0, 30)} literally`);

  // The episode DAG with hostile episode names (before the compaction,
  // which leaves a context without episodes), the sweep, the comparison.
  await page.keyboard.press('k');
  await page.click('[data-testid=panel-graph]');
  await page.waitForSelector('[data-testid=episode-graph] .node');
  const labels = await page.$$eval('[data-testid=episode-graph] .node text', (ts) => ts.map((t) => t.textContent));
  assert.ok(labels.some((l) => l.includes('<img')), `episode labels ${labels}`);
  await page.click('[data-testid=panel-sweep]');
  await page.waitForSelector('[data-testid=sweep] canvas');
  await page.click('[data-testid=panel-compare]');
  await page.waitForSelector('[data-testid=compare]');

  // Search: fragments carry the payloads around the matched word.
  await page.click('[data-testid=panel-search]');
  await page.fill('[data-testid=search-input]', 'pwned');
  await page.click('[data-testid=search-go]');
  await page.waitForSelector('[data-testid=search-hit] mark');
  await page.locator('[data-testid=search-hit]').first().click();

  // The workspace list shows the hostile file name and title.
  await page.click('[data-testid=tab-sessions]');
  await page.waitForSelector('[data-testid=session-row]');
  await page.fill('[data-testid=ws-search-input]', 'script');
  await page.click('[data-testid=ws-search-go]');
  await page.waitForSelector('[data-testid=ws-hit]');
  await screenshot(page, 'security-sessions.png');
  await page.click('[data-testid=tab-debugger]');
  await page.waitForSelector('[data-testid=timeline] canvas');
  await screenshot(page, 'security-debugger.png');

  assert.equal(await page.evaluate(() => window.__pwned), undefined, 'a payload ran');
  assert.deepEqual(await page.evaluate(injected), [], 'payload elements exist');
  assert.equal(new URL(page.url()).origin, origin, 'the page navigated away');
  assert.deepEqual(dialogs, []);
  assert.deepEqual(beacon.hits, [], 'a payload fetched from the beacon');
  assert.ok(bodies.length > 20, `only ${bodies.length} calls seen`);
  for (const { url, body } of bodies) {
    for (const m of payloadMarkers) assert.ok(!body.includes(m) && !url.includes(encodeURIComponent(m)), `${url} carried ${m}: ${body.slice(0, 200)}`);
  }
  assert.deepEqual(errors, []);
  await page.close();
});
