// Token truth in the debugger, in a real browser against `ctxscope serve`,
// on the biggest subagent thread of a real Claude Code session (53
// requests, every one with provider usage): the replay opens in the
// provider's calibrated tokens with the unlogged band at the bottom, the
// provider's reported input is drawn over the stack, the context says
// what the provider reported, and the counter can be switched back to the
// estimator, where the reported line stays as the reference.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, screenshot, startServe } from '../lib.mjs';
import { claudeSession, openPath, waitContext } from '../debugger-helpers.mjs';

let server, browser, page;
const errors = [];

before(async () => {
  server = await startServe();
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(server.url.href);
  await page.waitForSelector('[data-testid=timeline] canvas');
  await openPath(page, claudeSession);
  await page.selectOption('[data-testid=thread]', '5');
  await page.waitForFunction(() => document.querySelector('[data-testid=request-count]')?.textContent === '53');
});
after(async () => {
  await browser?.close();
  server?.stop();
});

const timelineData = () => page.evaluate(() => ({ ...document.querySelector('[data-testid=timeline]').dataset }));

test('a thread with usage opens in calibrated provider tokens', async () => {
  await page.waitForFunction(() => document.querySelector('[data-testid=timeline]')?.dataset.counter === 'calibrated');
  const d = await timelineData();
  assert.equal(Number(d.reported), 53, 'every request has a reported input to draw');
  assert.equal(await page.inputValue('[data-testid=counter]'), 'calibrated');
  const note = await page.textContent('[data-testid=counter-note]');
  assert.match(note, /calibrated online on the usage 53 requests of this thread report/);
  assert.match(note, /online error median \d+\.\d%/);
  assert.match(await page.textContent('[data-testid=window-use]'), /peak \d+% of 200k window/);
  // The hover line for the current request names the reported input.
  await page.keyboard.press('G');
  await page.waitForSelector('[data-testid=hover-reported]');
  assert.match(await page.textContent('[data-testid=hover-reported]'), /reported [\d.]+k in/);
});

test('the context says what the provider reported and what the log lacks', async () => {
  await page.keyboard.press('g');
  for (let i = 0; i < 20; i++) await page.keyboard.press('j');
  await waitContext(page, 21);
  const line = await page.textContent('[data-testid=provider-line]');
  assert.match(line, /reported [\d,]+ for the recorded input/);
  assert.match(line, /calibrated [\d,]+/);
  assert.match(line, /[\d,]+ unlogged \+ \d\.\d\d × counted, from \d+ earlier requests/);
  const rows = await page.$$eval('[data-testid=breakdown] td.name', (tds) => tds.map((td) => td.textContent));
  assert.ok(rows.some((r) => r.startsWith('unlogged')), `a breakdown row for the unlogged input: ${rows.join(' | ')}`);
  await screenshot(page, 'truth-calibrated.png');
});

test('switching to the estimator keeps the reported line as the reference', async () => {
  const calibratedPeak = Number((await timelineData()).peak);
  await page.selectOption('[data-testid=counter]', 'estimate');
  await page.waitForFunction(() => document.querySelector('[data-testid=timeline]')?.dataset.counter === 'estimate');
  const d = await timelineData();
  assert.equal(Number(d.reported), 53);
  assert.ok(Number(d.peak) < calibratedPeak, `the estimator's peak ${d.peak} is under the calibrated ${calibratedPeak}`);
  assert.match(await page.textContent('[data-testid=counter-note]'), /logged messages only; the line shows what the provider reported/);
  await screenshot(page, 'truth-estimate.png');
  assert.deepEqual(errors, []);
});
