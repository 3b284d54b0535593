// The recording proxy, end to end: the operator turns it on in the
// Sessions view, a real agent (Codex, the pinned version the real-agent
// tests install) runs through it against the tests' model server, and
// the conversation appears in the session list and grows while the agent
// is still running; the agent's own log, imported beside it, shows at each
// request what was sent that the log lacks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repo, screenshot, serveForSuite, startModelServer } from '../lib.mjs';

const suite = serveForSuite();

// codexBinary is the pinned Codex CLI that `scripts/setup.sh test`
// installs; the test fails, not skips, when it is missing.
function codexBinary() {
  const line = readFileSync(join(repo, 'scripts/agents.txt'), 'utf8').split('\n').find((l) => l.startsWith('codex '));
  assert.ok(line, 'scripts/agents.txt names codex');
  const bin = join(repo, '.cache/agents/codex/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex');
  assert.ok(existsSync(bin), `${bin} is missing: run scripts/setup.sh test`);
  return bin;
}

test('a real agent recorded through the proxy shows in the session list while it runs', { timeout: 180_000 }, async () => {
  const codex = codexBinary();
  const root = mkdtempSync(join(tmpdir(), 'ctxscope-proxy-e2e-'));
  const work = join(root, 'work');
  const home = join(root, 'codex-home');
  mkdirSync(work, { recursive: true });
  mkdirSync(home, { recursive: true });
  writeFileSync(join(work, 'notes.md'), '# notes\nThe adder lives in calc.sh.\n');
  const model = await startModelServer(work, '400ms');

  const page = await suite.browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await page.goto(suite.server.url.href);
    await page.waitForSelector('[data-testid=timeline] canvas');
    await page.click('[data-testid=tab-sessions]');
    await page.waitForSelector('[data-testid=proxy-toggle]');
    await page.fill('[data-testid=proxy-upstream]', model.url);
    await page.click('[data-testid=proxy-toggle]');
    const base = (await page.waitForSelector('[data-testid=proxy-base]').then((el) => el.textContent())).trim();
    assert.match(base, /^http:\/\/127\.0\.0\.1:\d+\/p\/[0-9a-f]{32}$/);

    writeFileSync(join(home, 'config.toml'), `model = "gpt-5.5"
model_provider = "ctxscope"

[model_providers.ctxscope]
name = "ctxscope"
base_url = "${base}/v1"
wire_api = "responses"
env_key = "MOCK_API_KEY"
request_max_retries = 0
stream_max_retries = 0

[analytics]
enabled = false

[features]
enable_request_compression = false
`);
    const agent = spawn(codex, ['exec', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', '-C', work, '--json',
      'CTXSCOPE-E2E-TASK: read the notes and say where the adder lives.'],
    { cwd: work, stdio: ['ignore', 'ignore', 'pipe'], env: { PATH: process.env.PATH, HOME: root, CODEX_HOME: home, MOCK_API_KEY: 'sk-e2e-never-stored', LANG: 'C.UTF-8', TERM: 'dumb', NO_COLOR: '1' } });
    let exited = false;
    const done = new Promise((resolve) => agent.on('exit', (code) => { exited = true; resolve(code); }));

    // The conversation is a row of the list before the agent is done, and
    // its request count grows while it runs.
    const row = '[data-testid=session-row]:has(td:nth-child(2):text-is("ctxscope-proxy"))';
    await page.waitForSelector(row, { timeout: 30_000 });
    const seen = [];
    while (!exited) {
      const n = Number(await page.locator(`${row} td:nth-child(5)`).first().textContent());
      if (seen.at(-1) !== n) seen.push(n);
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(await done, 0, 'codex ended well');
    assert.ok(seen.length >= 2 && seen[0] >= 1, `the request count shown while codex ran: ${seen.join(', ')}`);
    // Then every request of the run: five reads and the answer.
    const count = page.locator(`${row} td:nth-child(5)`).first();
    for (const deadline = Date.now() + 15_000; Number(await count.textContent()) !== 6 && Date.now() < deadline;) {
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(Number(await count.textContent()), 6, 'the six requests of the run');
    await screenshot(page, 'proxy-sessions.png');

    // The run's own log, imported too, is joined to the wire: at each
    // request the debugger says what was sent that Codex's log lacks (its
    // tool schemas).
    const rollout = execFileSync('find', [join(home, 'sessions'), '-name', 'rollout-*.jsonl']).toString().trim();
    assert.ok(rollout, 'codex wrote its rollout');
    await page.fill('[data-testid=import-path]', rollout);
    await page.click('[data-testid=import-go]');
    const logRow = page.locator('[data-testid=session-row]:has(td:nth-child(2):text-is("codex"))');
    await logRow.waitFor();
    await logRow.locator('button.link').click();
    await page.waitForSelector('[data-testid=wire][data-matched=true]', { timeout: 30_000 });
    const summary = await page.textContent('[data-testid=wire-summary]');
    assert.match(summary, /tool schemas \([\d,]+ tokens\)/, summary);
    assert.ok(Number(await page.getAttribute('[data-testid=wire]', 'data-lacks')) > 1000, 'the schemas are over a thousand tokens');
    await page.click('[data-testid=wire-toggle]');
    await page.waitForSelector('[data-testid=wire-parts] li');
    await screenshot(page, 'proxy-wire.png');
    // From the log's request to the same request as sent.
    const logHash = await page.evaluate(() => location.hash);
    await page.click('[data-testid=wire-open]');
    await page.waitForFunction((before) => location.hash !== before && location.hash.includes('session='), logHash);
    await page.waitForSelector('[data-testid=request-detail]');
    assert.match(await page.textContent('[data-testid=request-detail]'), /^Request 6 of 6/);

    // The records hold no key.
    const records = execFileSync('cat', [...execFileSync('ls', ['-1', join(suite.server.workspace, 'proxy')]).toString().trim().split('\n')
      .map((f) => join(suite.server.workspace, 'proxy', f))]).toString();
    assert.ok(records.length > 0 && !records.includes('sk-e2e-never-stored'), 'the API key is not in the records');
    assert.deepEqual(errors, []);
  } finally {
    model.proc.kill();
    await page.close();
  }
});
