// Helpers of the debugger's browser tests: open a session by path, read
// the current request, build large real sessions by concatenation.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { artifacts, shared } from './lib.mjs';

export const claudeSession = join(shared, 'sessions/claude-code/claude-code-viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl');
export const piLarge = join(shared, 'sessions/pi/pi-cwl__large-session.jsonl');
export const piBeforeCompaction = join(shared, 'sessions/pi/pi-cwl__before-compaction.jsonl');

// openPath opens a session file through the path field and waits until
// its timeline shows.
export async function openPath(page, path) {
  await page.fill('[data-testid=path-input]', path);
  await page.click('[data-testid=open-path]');
  await page.waitForFunction((p) => {
    const stats = document.querySelector('[data-testid=stats]');
    return document.querySelector('[data-testid=session-title]')?.getAttribute('title') === p
      && stats?.dataset.key === stats?.dataset.timelineKey && document.querySelector('[data-testid=timeline] canvas');
  }, path, { timeout: 120_000 });
}

// step returns the current request (1-based) as the timeline reports it.
export async function step(page) {
  return Number(await page.getAttribute('[data-testid=timeline]', 'aria-valuenow'));
}

// waitStep waits until the current request is k (1-based).
export async function waitStep(page, k) {
  await page.waitForFunction((k) => document.querySelector('[data-testid=timeline]')?.getAttribute('aria-valuenow') === String(k), k);
}

// urlSettled waits until the address bar holds the request and τ the
// page shows: the URL follows the view state at most every 250 ms, and a
// reload before it has loads the state it still holds.
export async function urlSettled(page) {
  await page.waitForFunction(() => {
    const t = document.querySelector('[data-testid=timeline]');
    const hash = new URLSearchParams(location.hash.slice(1));
    return t && hash.get('step') === String(Number(t.getAttribute('aria-valuenow')) - 1) && hash.get('budget') === t.dataset.budget;
  });
}

// waitContext waits until the context view shows request k (1-based).
export async function waitContext(page, k) {
  await page.waitForFunction((k) => document.querySelector('[data-testid=request-detail]')?.textContent?.startsWith(`Request ${k} `)
    && document.querySelector('[data-testid=context]') !== null && !document.querySelector('.updating'), k);
}

// concatPi writes a pi session made of `copies` copies of the messages of
// the real 453-request pi session, one after another: a long real-shaped
// session (8 copies hold about 1M tokens, 12 copies 5,436 requests).
export function concatPi(copies) {
  const lines = readFileSync(piLarge, 'utf8').trimEnd().split('\n');
  const out = [lines[0]];
  for (let i = 0; i < copies; i++) out.push(...lines.slice(1));
  const path = join(mkdtempSync(join(tmpdir(), 'ctxscope-big-')), `concat-${copies}.jsonl`);
  writeFileSync(path, out.join('\n') + '\n');
  return path;
}

// paperScale writes the paper-scale session: the real pi session before
// its compaction (484 requests, 375k tokens by the estimator), 27 times
// over, one copy after another, as concatPi does. It is deterministic:
// 13,068 requests and 10.1M tokens of history (every message counted
// once), 64 MB.
export const paperScaleCopies = 27;
export function paperScale() {
  const lines = readFileSync(piBeforeCompaction, 'utf8').trimEnd().split('\n');
  const out = [lines[0]];
  for (let i = 0; i < paperScaleCopies; i++) out.push(...lines.slice(1));
  const path = join(mkdtempSync(join(tmpdir(), 'ctxscope-paper-')), `paper-scale-${paperScaleCopies}.jsonl`);
  writeFileSync(path, out.join('\n') + '\n');
  return path;
}

// hostilePayloads returns markup and script payloads. Each that ran or
// rendered as markup would set window.__pwned, navigate, or fetch from
// beacon (an http origin the test listens on), so a test can tell.
export function hostilePayloads(beacon) {
  return [
    `<script>window.__pwned='script';fetch('${beacon}/script')</script>`,
    `<img src="${beacon}/img" onerror="window.__pwned='img'">`,
    `<a href="javascript:window.__pwned='link'" id="pwnlink">click me</a>`,
    `<svg onload="window.__pwned='svg'"><script>window.__pwned='svgscript'</script><image href="${beacon}/svgimage"/></svg>`,
    `[markdown link](javascript:window.__pwned='md') ![img](${beacon}/mdimg)`,
    `<iframe src="${beacon}/iframe" onload="window.__pwned='iframe'"></iframe>`,
    `<meta http-equiv="refresh" content="0;url=${beacon}/meta">`,
    `<style>@import '${beacon}/style';</style><b onmouseover="window.__pwned='hover'">bold</b>`,
  ];
}

// payloadMarkers are substrings that no request to a bound Go method may
// carry: they only occur in the hostile session's content.
export const payloadMarkers = ['<script', 'onerror', 'javascript:', '<svg', '<img', '<iframe', '__pwned', '<meta', 'onmouseover'];

// hostileSession writes a pi session (with CWL delimiter episodes, so that
// episode names show in the DAG) whose every text carries payloads: the
// user's turns (and so the title), thinking, tool names, tool arguments,
// tool output, episode names and descriptions, and a compaction summary.
export function hostileSession(beacon) {
  const p = hostilePayloads(beacon);
  const lines = [];
  let id = 0;
  let parent = null;
  const t0 = Date.parse('2026-03-14T09:30:00Z');
  const ts = () => new Date(t0 + id * 1000).toISOString();
  const entry = (e) => {
    const eid = `e${++id}`;
    lines.push(JSON.stringify({ ...e, id: eid, parentId: parent, timestamp: ts() }));
    parent = eid;
  };
  lines.push(JSON.stringify({ type: 'session', version: 3, id: 'hostile-session', cwd: '/tmp/<b>cwd</b>', timestamp: ts() }));
  const user = (text) => entry({ type: 'message', message: { role: 'user', content: [{ type: 'text', text }], timestamp: t0 + id * 1000 } });
  const assistant = (content) => entry({ type: 'message', message: { role: 'assistant', content, model: 'm', provider: 'p', stopReason: 'toolUse',
    usage: { input: 10, output: 10, cacheRead: 0, cacheWrite: 0 }, timestamp: t0 + id * 1000 } });
  const result = (callId, toolName, text, details) => entry({ type: 'message', message: { role: 'toolResult', toolCallId: callId, toolName,
    content: [{ type: 'text', text }], ...(details ? { details } : {}), isError: false, timestamp: t0 + id * 1000 } });
  // delimiter records a CWL delimiter call and its answer as pi-cwl
  // writes them.
  let open = null;
  const delimiter = (n, args) => {
    assistant([{ type: 'toolCall', id: `d${n}`, name: 'delimiter', arguments: args }]);
    const chunk = args.action === 'start' ? { name: args.name, type: args.type, ...(args.dependencies ? { dependencies: args.dependencies } : {}) }
      : { ...open, description: args.description };
    if (args.action === 'start') open = chunk;
    const text = args.action === 'start' ? `start [${chunk.type}] ${chunk.name}` : `end [${chunk.type}] ${chunk.name} — ${args.description}`;
    result(`d${n}`, 'delimiter', text, { chunkEvent: { action: args.action, chunk } });
  };
  user(`${p[0]} please fix ${p[2]}`);
  delimiter(1, { action: 'start', name: `explore ${p[1]}`, type: 'expl' });
  let call = 0;
  for (const [i, payload] of p.entries()) {
    call++;
    assistant([{ type: 'thinking', thinking: `thinking ${payload}` }, { type: 'text', text: `text ${payload}` },
      { type: 'toolCall', id: `c${call}`, name: i % 2 ? 'read' : `tool${payload}`, arguments: { path: `/src/${payload}.ts`, note: payload } }]);
    result(`c${call}`, i % 2 ? 'read' : `tool${payload}`, `output ${payload}\n`.repeat(200));
  }
  delimiter(2, { action: 'end', description: `found ${p[3]}` });
  delimiter(3, { action: 'start', name: `act ${p[5]}`, type: 'act', dependencies: [`explore ${p[1]}`] });
  for (const payload of p) {
    call++;
    assistant([{ type: 'toolCall', id: `c${call}`, name: 'bash', arguments: { command: `echo '${payload}'` } }]);
    result(`c${call}`, 'bash', `${payload}\n`.repeat(300));
  }
  delimiter(4, { action: 'end', description: `done ${p[4]}` });
  entry({ type: 'compaction', summary: `summary ${p.join(' ')}`, firstKeptEntryId: parent, tokensBefore: 9999 });
  user(`after compaction ${p[6]} ${p[7]}`);
  assistant([{ type: 'text', text: `final ${p[1]}` }]);
  const dir = mkdtempSync(join(tmpdir(), 'ctxscope-hostile-'));
  const name = `<img src=x onerror=window.__pwned=1>.jsonl`;
  const path = join(dir, name);
  writeFileSync(path, lines.join('\n') + '\n');
  return { path, name, payloads: p };
}

// beaconServer listens on loopback and records every request: a payload
// that rendered as markup or ran as script would reach it.
export async function beaconServer() {
  const { createServer } = await import('node:http');
  const hits = [];
  const srv = createServer((req, res) => {
    hits.push(req.url);
    res.end('');
  });
  await new Promise((r) => srv.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${srv.address().port}`, hits, close: () => new Promise((r) => srv.close(r)) };
}

// recordBench merges figures into artifacts/bench/debugger.json, from
// which docs/bench/debugger.md is written.
export function recordBench(figures) {
  const dir = join(artifacts, 'bench');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'debugger.json');
  let all = {};
  try {
    all = JSON.parse(readFileSync(path, 'utf8'));
  } catch {}
  writeFileSync(path, JSON.stringify({ ...all, ...figures }, null, 2) + '\n');
}

// stats summarizes samples: median, 95th percentile, max.
export function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { n: s.length, median: round(q(0.5)), p95: round(q(0.95)), max: round(s[s.length - 1]) };
}

function round(v) {
  return Math.round(v * 10) / 10;
}

// dragTau takes the τ slider's thumb at fraction from of its width and
// moves it by fraction by, moves times, 16 ms apart, then lets it go. It
// returns the page's clock (performance.now) at the release.
export async function dragTau(page, from, by, moves = 40) {
  const box = await page.locator('[data-testid=tau-slider]').boundingBox();
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width * from, y);
  await page.mouse.down();
  for (let i = 0; i <= moves; i++) {
    await page.mouse.move(box.x + box.width * (from + by * i), y);
    await page.waitForTimeout(16);
  }
  const released = await page.evaluate(() => performance.now());
  await page.mouse.up();
  return released;
}

// scrubTimeline drags across the whole timeline, rightward or back, one
// move per animation frame.
export async function scrubTimeline(page, rightward = true, moves = 240) {
  const box = await page.locator('[data-testid=timeline] .u-over').boundingBox();
  const x = (i) => box.x + 5 + ((box.width - 10) * (rightward ? i : moves - i)) / moves;
  const y = box.y + box.height / 2;
  await page.mouse.move(x(0), y);
  await page.mouse.down();
  for (let i = 0; i <= moves; i++) {
    await page.mouse.move(x(i), y);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
  }
  await page.mouse.up();
}
