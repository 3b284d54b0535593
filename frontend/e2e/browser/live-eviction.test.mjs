// Live eviction, end to end: the operator's proxy evicts under the paper
// policy at τ 6,000; an agent (a Chat Completions client playing the
// model server's eviction task) runs through it; the debugger, opened on
// the conversation at the same policy and τ, marks the requests the proxy
// rewrote (from its records) beside the replay's evictions, its τ sweep
// sets the run's recorded cost beside the requests as sent, and its kill
// switch turns eviction off for that
// conversation alone: the next request goes as sent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { screenshot, serveForSuite, startModelServer } from '../lib.mjs';

const suite = serveForSuite();

// chatAgent sends the conversation to the proxy, answers every tool call
// with a long output, and reports whether the model called a tool.
function chatAgent(base) {
  const tools = ['read', 'bash', 'edit'].map((name) => ({ type: 'function', function: { name, parameters: { type: 'object', properties: {
    path: { type: 'string' }, command: { type: 'string' }, old_str: { type: 'string' }, new_str: { type: 'string' } } } } }));
  const messages = [{ role: 'system', content: 'be brief' }, { role: 'user', content: 'CTXSCOPE-E2E-EVICT: read a.txt again and again' }];
  return async function turn() {
    const res = await fetch(`${base}/v1/chat/completions`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: 'Bearer sk-e2e-never-stored' },
      body: JSON.stringify({ model: 'gpt-4.1', messages, tools }) });
    assert.equal(res.status, 200);
    const msg = (await res.json()).choices[0].message;
    messages.push(msg);
    for (const [n, c] of (msg.tool_calls ?? []).entries()) {
      messages.push({ role: 'tool', tool_call_id: c.id, content: `line of the file, number ${'abcdefgh'[n]}\n`.repeat(120) });
    }
    return (msg.tool_calls ?? []).length > 0;
  };
}

// records reads the proxy's records of the conversation: the complete
// lines of its file (the proxy writes a record once the response has gone
// out, so the agent may be a line ahead of the file).
function records(dir) {
  const text = readFileSync(join(dir, readdirSync(dir).find((f) => f.endsWith('.jsonl'))), 'utf8');
  return text.slice(0, text.lastIndexOf('\n') + 1).split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

// rewriteOf waits for the conversation's nth record and returns its
// rewrite note.
async function rewriteOf(dir, n) {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
    const recs = records(dir);
    if (recs.length >= n) return recs[n - 1].rewrite ?? '';
  }
  assert.fail(`the proxy wrote no record ${n} within 10 s`);
}

test('the debugger shows a conversation under live eviction, and turns it off for that conversation', { timeout: 120_000 }, async () => {
  const model = await startModelServer(mkdtempSync(join(tmpdir(), 'ctxscope-evict-e2e-')), '0s');
  const { server } = suite;
  const page = await suite.browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    const st = await (await server.call('Live', 'SetProxy', [{ on: true, addr: '', upstreams: [model.url], policy: 'paper', budget: 6000, step: 0 }])).json();
    assert.equal(st.policy, 'paper');
    const turn = chatAgent(st.baseUrl);
    // Twelve of the task's seventeen requests, then the switch.
    for (let i = 0; i < 12; i++) assert.ok(await turn(), `request ${i + 1} called a tool`);
    assert.match(await rewriteOf(st.dir, 12), /^evicted \d+ blocks at τ 6000/);

    let sessions = [];
    for (const deadline = Date.now() + 15_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
      sessions = (await (await server.call('Sessions', 'List')).json()).filter((s) => s.format === 'ctxscope-proxy');
      if (sessions[0]?.requests === 12) break;
    }
    assert.equal(sessions[0]?.requests, 12, 'the conversation is a session with its twelve requests');
    await page.goto(server.pageURL(`tab=debugger&session=${sessions[0].key}&policy=paper&budget=6000&step=11`));
    await page.waitForSelector('[data-testid=timeline] canvas');
    assert.ok(Number(await page.getAttribute('[data-testid=eviction-count]', 'data-count')) > 0, 'the replay at the proxy\'s τ evicts');
    // The proxy's own decisions, from its records: as many marks as
    // requests it rewrote, and the note of the request shown.
    const recs = records(st.dir);
    const rewritten = recs.filter((r) => r.forwarded).length;
    assert.ok(rewritten > 0);
    assert.equal(Number(await page.getAttribute('[data-testid=live-count]', 'data-count')), rewritten);
    assert.equal(await page.textContent('[data-testid=live-note]'), `proxy: forwarded rewritten (${recs[11].rewrite})`);
    const toggle = page.locator('[data-testid=live-evict-toggle]');
    assert.ok(await toggle.isChecked(), 'eviction is on for the conversation');
    assert.match(await page.textContent('[data-testid=live-evict]'), /evict live \(paper, τ 6,000\)/);
    await screenshot(page, 'live-eviction.png');
    // The τ sweep sets the run as it cost (the provider's usage for the
    // forwarded requests) beside the requests as sent, replayed.
    await page.click('[data-testid=panel-sweep]');
    await page.waitForSelector('[data-testid=sweep-live]');
    const input = async (row) => (await page.textContent(`[data-testid=${row}] td`)).trim();
    assert.match(await input('sweep-live-recorded'), /^[\d.]+k?$/);
    assert.notEqual(await input('sweep-live-recorded'), await input('sweep-live-unmodified'));
    await screenshot(page, 'live-eviction-sweep.png');

    await toggle.click();
    await page.waitForFunction(() => !document.querySelector('[data-testid=live-evict-toggle]').checked);
    assert.ok(await turn());
    assert.equal(await rewriteOf(st.dir, 13), 'not rewritten: eviction is turned off for this conversation');
    await toggle.click();
    await page.waitForFunction(() => document.querySelector('[data-testid=live-evict-toggle]').checked);
    assert.ok(await turn());
    assert.match(await rewriteOf(st.dir, 14), /^evicted \d+ blocks/);
    assert.deepEqual(errors, []);
  } finally {
    model.proc.kill();
    await page.close();
  }
});
