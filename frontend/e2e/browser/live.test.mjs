// Live tail: a session file that an agent is still writing. The test
// appends real records to a copy of a real pi session while the debugger
// follows it, and sees the new requests arrive with the "new since last
// seen" marker.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { screenshot, serveForSuite } from '../lib.mjs';
import { openPath, piLarge, recordBench, stats } from '../debugger-helpers.mjs';

const suite = serveForSuite();

test('a followed session grows in the debugger with a new-since-seen marker', { timeout: 120_000 }, async () => {
  const lines = readFileSync(piLarge, 'utf8').trimEnd().split('\n');
  const path = join(mkdtempSync(join(tmpdir(), 'ctxscope-live-')), 'live-session.jsonl');
  const start = 400;
  writeFileSync(path, lines.slice(0, start).join('\n') + '\n');

  const page = await suite.browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(suite.server.url.href);
  await page.waitForSelector('[data-testid=timeline] canvas');
  await openPath(page, path);
  const before = Number(await page.textContent('[data-testid=request-count]'));
  await page.click('[data-testid=live-toggle]');
  await page.waitForFunction(() => document.querySelector('[data-testid=live-toggle]')?.getAttribute('aria-pressed') === 'true');
  // Record when the request count changes, by the page's clock (the same
  // machine's clock as the test's).
  await page.evaluate(() => {
    window.__changes = [];
    const el = document.querySelector('[data-testid=request-count]');
    new MutationObserver(() => window.__changes.push({ at: Date.now(), n: Number(el.textContent) }))
      .observe(el, { childList: true, characterData: true, subtree: true });
  });

  // Append the rest of the session in bursts of ten records, as an agent
  // writes a few turns at a time; time each burst until the page shows it.
  const latencies = [];
  let at = start;
  while (at < lines.length && latencies.length < 12) {
    const burst = lines.slice(at, at + 10);
    at += burst.length;
    const shownBefore = Number(await page.textContent('[data-testid=request-count]'));
    const t0 = Date.now();
    appendFileSync(path, burst.join('\n') + '\n');
    const grew = burst.some((l) => l.includes('"role":"assistant"'));
    if (!grew) continue;
    await page.waitForFunction((n) => Number(document.querySelector('[data-testid=request-count]')?.textContent) > n, shownBefore, { timeout: 10_000 });
    const changes = await page.evaluate(() => window.__changes.splice(0));
    latencies.push(changes[0].at - t0);
  }
  await page.waitForSelector('[data-testid=new-since-seen]');
  const after = Number(await page.textContent('[data-testid=request-count]'));
  assert.ok(after > before, `${after} requests after appending, ${before} before`);
  assert.match(await page.textContent('[data-testid=new-since-seen]'), new RegExp(`^${after - before} new since last seen`));
  await screenshot(page, 'debugger-live.png');

  // The workspace list counts them too, until the user looks.
  await page.click('[data-testid=tab-sessions]');
  await page.waitForSelector('[data-testid=session-new]');
  await screenshot(page, 'sessions-live.png');
  await page.click('[data-testid=tab-debugger]');
  await page.click('[data-testid=new-since-seen]');
  await page.waitForSelector('[data-testid=new-since-seen]', { state: 'detached' });

  const s = stats(latencies);
  recordBench({ liveAppendToShown: { ...s, unit: 'ms', what: 'append of 10 real pi records to a followed file → request count updated in the page (serve mode)' } });
  console.log('live latency', s);
  assert.deepEqual(errors, []);
  await page.close();
});
