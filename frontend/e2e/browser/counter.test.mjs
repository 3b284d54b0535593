// A session's counter is its own: opening a session that reports no
// usage (an OTLP export without token counts) right after one replayed
// in calibrated provider tokens replays it with the estimator, instead
// of asking to calibrate it and waiting on "Loading…" for good. A replay
// that fails says why where the timeline would be.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { launchBrowser, screenshot, shared, startServe } from '../lib.mjs';

let server, browser;
before(async () => { server = await startServe(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); server?.stop(); });

const calibrated = join(shared, 'sessions/claude-code/claude-code-viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl');

// noUsageExport is an OTLP/JSON export of three chat calls of one
// conversation, with their messages and no token counts.
function noUsageExport() {
  const attrs = (o) => Object.entries(o).map(([key, v]) => ({ key, value: { stringValue: v } }));
  const said = (role, text) => JSON.stringify([{ role, parts: [{ type: 'text', content: text }] }]);
  const spans = [1, 2, 3].map((i) => ({
    traceId: '0102030405060708090a0b0c0d0e0f10', spanId: `010203040506070${i}`, name: 'chat m',
    startTimeUnixNano: String(1e18 + i * 1e9), endTimeUnixNano: String(1e18 + i * 1e9 + 5e8),
    attributes: attrs({ 'gen_ai.operation.name': 'chat', 'gen_ai.conversation.id': 'conv-no-usage', 'gen_ai.request.model': 'm',
      'gen_ai.input.messages': said('user', `question ${i}`), 'gen_ai.output.messages': said('assistant', `answer ${i}`) }),
  }));
  return { resourceSpans: [{ resource: { attributes: attrs({ 'service.name': 'agent' }) }, scopeSpans: [{ spans }] }] };
}

test('a session without usage opened after a calibrated one replays with its own counter', { timeout: 120_000 }, async () => {
  const sent = await fetch(`${server.origin}/v1/traces`, { method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Ctxscope-Token': server.token }, body: JSON.stringify(noUsageExport()) });
  assert.equal(sent.status, 200, await sent.text());
  const first = await (await server.call('Sessions', 'OpenPath', [calibrated])).json();
  const list = await (await server.call('Sessions', 'List', [])).json();
  const otlp = list.find((s) => s.format === 'otlp');
  assert.ok(otlp, `no OTLP session among ${list.map((s) => s.format)}`);

  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(server.pageURL(`tab=debugger&session=${first.key}`));
  await page.waitForSelector('[data-testid=counter-note]');
  assert.match(page.url(), /counter=calibrated/);
  await page.click('[data-testid=tab-sessions]');
  await page.click(`[data-testid=session-row][data-key="${otlp.key}"] button.link`);
  await page.waitForFunction(() => /counter=estimate/.test(location.hash) && document.querySelector('[data-testid=counter-note]'), null, { timeout: 10_000 });
  assert.equal(await page.locator('[data-testid=error]').count(), 0, 'an error banner shows');

  // Asked outright to calibrate what reports no usage, the view says why
  // it cannot instead of loading for good.
  await page.goto(server.pageURL(`tab=debugger&session=${otlp.key}&counter=calibrated`));
  await page.reload();
  await page.waitForSelector('[data-testid=replay-failed]', { timeout: 10_000 });
  assert.match(await page.textContent('[data-testid=replay-failed]'), /no provider usage to calibrate on/);
  await screenshot(page, 'counter-replay-failed.png');
  assert.deepEqual(errors, []);
  await page.close();
});
