// Help in the app, in a real browser against `ctxscope serve`: a new
// workspace shows the first-run guide (where each agent writes its
// sessions, what "Watch agent folders" does) once; ? opens the help panel
// on every tab, with that view's keys and the glossary; the terms of the
// trade carry their explanation as a tooltip.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, newWorkspace, screenshot, startServe } from '../lib.mjs';

let server, browser, page;
const errors = [];
const ws = newWorkspace();

before(async () => {
  server = await startServe('--guide', '--workspace', ws);
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(server.url.href);
});
after(async () => {
  await browser?.close();
  server?.stop();
  assert.deepEqual(errors, []);
});

test('a new workspace opens on the first-run guide, once', async () => {
  await page.waitForSelector('[data-testid=first-run]');
  const places = await page.$$eval('[data-testid=agent-place]', (rows) => rows.map((r) => r.textContent));
  for (const agent of ['Claude Code', 'Codex', 'Gemini CLI', 'OpenCode', 'GitHub Copilot CLI', 'pi']) {
    assert.ok(places.some((p) => p.startsWith(agent)), `${agent} is listed: ${places.join(' | ')}`);
  }
  assert.match(await page.textContent('[data-testid=first-run]'), /Watch agent folders[\s\S]*imports every session in the folders found above/);
  await screenshot(page, 'first-run.png');
  await page.click('[data-testid=first-run-close]');
  await page.waitForSelector('[data-testid=first-run]', { state: 'detached' });
  await page.reload();
  await page.waitForSelector('[data-testid=timeline] canvas');
  assert.equal(await page.$('[data-testid=first-run]'), null, 'the guide does not come back');
});

test('? opens the help on every tab', async () => {
  for (const [tab, about] of [['debugger', /replays one thread/], ['sessions', /sessions of the workspace/], ['memory', /memories of the workspace/]]) {
    await page.click(`[data-testid=tab-${tab}]`);
    await page.locator('body').press('?');
    await page.waitForSelector('[data-testid=help]');
    assert.match(await page.textContent('[data-testid=help-about]'), about, tab);
    if (tab === 'memory') assert.match(await page.textContent('[data-testid=help]'), /in the annotation queue: mark the item helpful/);
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid=help]', { state: 'detached' });
  }
  await page.click('[data-testid=tab-debugger]');
  await page.click('[data-testid=help-open]');
  await page.click('[data-testid=help-terms]');
  const terms = await page.$$eval('[data-testid=help-glossary] dt', (dts) => dts.map((d) => d.textContent));
  for (const t of ['τ (token budget)', 'paper', 'pi-cwl', 'L1 reasoning', 'L4 full', 'expl', 'act', 'declared episodes', 'inferred episodes', 'reported', 'estimated', 'calibrated', 'look-back']) {
    assert.ok(terms.includes(t), `${t} is explained`);
  }
  await screenshot(page, 'help-panel.png');
  await page.keyboard.press('Escape');
});

test('the terms in the debugger carry their explanation', async () => {
  const tau = await page.getAttribute('[data-testid=stats] ~ .controls [data-term=tau]', 'title');
  assert.match(tau, /most input tokens a request may carry/);
  const policy = await page.getAttribute('[data-testid=policy]', 'title');
  assert.match(policy, /CWL as the paper describes it/);
  const options = await page.$$eval('[data-testid=policy] option', (os) => os.map((o) => [o.value, o.title]));
  for (const [p, t] of options) assert.ok(t.length > 20, `policy ${p} is explained`);
});
