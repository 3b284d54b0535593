// The first screen in a real browser against `ctxscope serve`: open the
// large real pi session and check the timeline shows all of its requests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { screenshot, serveForSuite, shared } from '../lib.mjs';

const suite = serveForSuite();

test('serve answers no API call without the token', async () => {
  for (const path of ['/api/call/Sessions/List', '/api/events', '/api/upload?name=x.jsonl']) {
    const resp = await fetch(suite.server.origin + path, { method: path === '/api/events' ? 'GET' : 'POST',
      headers: { 'Content-Type': 'application/json' }, body: path === '/api/events' ? undefined : '[]' });
    assert.equal(resp.status, 401, path);
  }
  const page = await fetch(suite.server.origin + '/');
  assert.equal(page.status, 200, 'the built frontend itself is public');
  assert.equal(page.headers.get('set-cookie'), null, 'serve sets no cookie');
});

test('the demo session opens by default', async () => {
  const page = await suite.browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(suite.server.url.href);
  await page.waitForSelector('[data-testid=timeline] canvas');
  assert.equal(await page.textContent('[data-testid=request-count]'), '32');
  assert.ok(!page.url().includes('token='), 'the token is removed from the address bar');
  assert.deepEqual(await page.context().cookies(), [], 'serve sets no cookie');
  await screenshot(page, 'browser-demo.png');
  await page.close();
});

test('the large pi session shows 453 requests and steps with the keyboard', async () => {
  const page = await suite.browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(suite.server.url.href);
  await page.waitForSelector('[data-testid=timeline] canvas');
  await page.fill('[data-testid=path-input]', join(shared, 'sessions/pi/pi-cwl__large-session.jsonl'));
  await page.click('[data-testid=open-path]');
  await page.waitForFunction(() => document.querySelector('[data-testid=request-count]')?.textContent === '453');
  // The uncapped input, as the source sent it.
  await page.selectOption('[data-testid=policy]', 'none');
  await page.waitForFunction(() => document.querySelector('[data-testid=eviction-count]')?.dataset.count === '0');
  const timeline = page.locator('[data-testid=timeline]');
  assert.equal(await timeline.getAttribute('data-requests'), '453');
  assert.equal(await page.textContent('[data-testid=session-title]'), '/mode');

  // The last request is selected first; Home jumps to the first request,
  // the arrow key moves one on.
  await timeline.focus();
  await page.keyboard.press('Home');
  assert.equal(await timeline.getAttribute('aria-valuenow'), '1');
  await page.keyboard.press('ArrowRight');
  assert.equal(await timeline.getAttribute('aria-valuenow'), '2');
  assert.match(await page.textContent('[data-testid=request-detail]'), /^Request 2 /);
  await page.keyboard.press('End');
  // The session reports usage, so the figures are the provider's tokens,
  // calibrated online: the last request lands within 1% of the 177,604
  // the provider reported for it (input + cache read + cache write).
  assert.equal(await page.inputValue('[data-testid=counter]'), 'calibrated');
  const calibrated = Number((await page.textContent('[data-testid=request-tokens]')).replaceAll(',', ''));
  assert.ok(Math.abs(calibrated - 177604) / 177604 < 0.01, `calibrated ${calibrated}`);
  // The estimator counts the logged messages only.
  await page.selectOption('[data-testid=counter]', 'estimate');
  await page.waitForFunction(() => document.querySelector('[data-testid=request-tokens]')?.textContent === '124,607');

  // Switching the counter re-measures with the BPE tokenizer.
  await page.selectOption('[data-testid=counter]', 'o200k');
  await page.waitForFunction(() => document.querySelector('[data-testid=request-tokens]')?.textContent !== '124,607');
  await screenshot(page, 'browser-large-session.png');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a bad path shows a clear error and keeps the session', async () => {
  const page = await suite.browser.newPage();
  await page.goto(suite.server.url.href);
  await page.waitForSelector('[data-testid=timeline] canvas');
  await page.fill('[data-testid=path-input]', '/nonexistent/session.jsonl');
  await page.click('[data-testid=open-path]');
  await page.waitForSelector('[data-testid=error]');
  assert.match(await page.textContent('[data-testid=error]'), /no such file/);
  assert.equal(await page.textContent('[data-testid=request-count]'), '32');
  await page.close();
});
