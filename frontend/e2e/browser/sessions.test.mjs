// The workspace view: import a folder of real sessions, see their figures,
// search across them and open a hit in the debugger, delete one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { screenshot, serveForSuite, shared, startServeWithEnv } from '../lib.mjs';

const suite = serveForSuite();

test('import a folder, search the workspace, open a hit, delete a session', { timeout: 120_000 }, async () => {
  const page = await suite.browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(suite.server.url.href);
  await page.waitForSelector('[data-testid=timeline] canvas');
  await page.click('[data-testid=tab-sessions]');
  await page.waitForSelector('[data-testid=session-row]');
  assert.equal(await page.locator('[data-testid=session-row]').count(), 1, 'the demo alone');

  await page.fill('[data-testid=import-path]', join(shared, 'sessions/claude-code'));
  await page.click('[data-testid=import-go]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=session-row]').length === 4);
  const row = page.locator('[data-testid=session-row][data-key="fe5e1c67-53e7-4862-81ae-d0e013e3270b"]');
  const cells = await row.locator('td').allTextContents();
  assert.equal(cells[1], 'claude-code');
  assert.equal(cells[4], '9', 'requests of the main thread, cached at import');
  assert.match(cells[5], /^5\.81k$/, 'peak input by the estimator');
  await screenshot(page, 'sessions-view.png');

  await page.fill('[data-testid=ws-search-input]', 'orchestrator');
  await page.click('[data-testid=ws-search-go]');
  await page.waitForSelector('[data-testid=ws-hit]');
  await page.locator('[data-testid=ws-hit]').first().click();
  await page.waitForSelector('[data-testid=timeline] canvas');
  await page.waitForFunction(() => location.hash.includes('tab=debugger') && location.hash.includes('session='));

  await page.click('[data-testid=tab-sessions]');
  const del = page.locator('[data-testid=session-row][data-key="fe5e1c67-53e7-4862-81ae-d0e013e3270b"] [data-testid=session-delete]');
  await del.click();
  assert.equal(await del.textContent(), 'confirm delete');
  await del.click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=session-row]').length === 3);
  assert.deepEqual(errors, []);
  await page.close();
});

test('watching the agent folders imports a session as it is written', { timeout: 120_000 }, async () => {
  // A home directory of our own with a Claude Code project folder, and a
  // folder next to it that must never be read.
  const home = mkdtempSync(join(tmpdir(), 'ctxscope-home-'));
  const project = join(home, '.claude', 'projects', '-work-demo');
  mkdirSync(project, { recursive: true });
  mkdirSync(join(home, 'notes'));
  const source = readFileSync(join(shared, 'sessions/claude-code/claude-code-viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl'), 'utf8');
  writeFileSync(join(home, 'notes', 'not-watched.jsonl'), source);
  const lines = source.split(/(?<=\n)/);
  const half = Math.floor(lines.length / 2);

  const watcher = await startServeWithEnv({ HOME: home });
  const page = await suite.browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await page.goto(watcher.url.href);
    await page.click('[data-testid=tab-sessions]');
    await page.waitForSelector('[data-testid=session-row]');
    assert.equal(await page.locator('[data-testid=session-row]').count(), 1, 'the demo alone');
    await page.click('[data-testid=discover-toggle]');
    await page.waitForSelector('[data-testid=discover-dirs]');
    assert.equal(await page.textContent('[data-testid=discover-dirs]'), '(~/.claude/projects)');

    // The agent starts a session: it appears on its own, then grows.
    const path = join(project, 'fe5e1c67.jsonl');
    writeFileSync(path, lines.slice(0, half).join(''));
    const row = '[data-testid=session-row][data-key="fe5e1c67-53e7-4862-81ae-d0e013e3270b"]';
    await page.waitForSelector(row, { timeout: 10_000 });
    const early = Number((await page.locator(`${row} td`).nth(4).textContent()).trim());
    appendFileSync(path, lines.slice(half).join(''));
    await page.waitForFunction((sel) => document.querySelector(sel)?.querySelectorAll('td')[4]?.textContent.trim() === '9', row, { timeout: 10_000 });
    assert.ok(early < 9, `the half-written session had ${early} requests`);
    assert.equal(await page.locator('[data-testid=session-row]').count(), 2, 'the demo and the discovered session, nothing from ~/notes');
    await screenshot(page, 'sessions-discovered.png');

    // The setting is kept in the workspace.
    await page.reload();
    await page.click('[data-testid=tab-sessions]');
    await page.waitForSelector('[data-testid=discover-dirs]');
    assert.ok(await page.isChecked('[data-testid=discover-toggle]'));
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
    watcher.stop();
  }
});
