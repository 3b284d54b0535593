// The debugger in the real desktop window under Xvfb: a real Claude Code
// session opens and the window is screenshot; a hostile session renders
// with no payload running or fetching, and the call log (the app's record
// of every bound call, CTXSCOPE_CALL_LOG) shows that none of its content
// reached Go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { artifacts, bin, distinctColors, newWorkspace, waitForLine } from '../lib.mjs';
import { beaconServer, claudeSession, hostileSession, payloadMarkers, piLarge } from '../debugger-helpers.mjs';

// launch starts the desktop app on a session file and waits until its
// timeline has drawn.
async function launch(file, env = {}) {
  const proc = spawn(bin, ['--no-guide', '--workspace', newWorkspace(), file], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let stderr = '';
  proc.stderr.on('data', (d) => { stderr += d; });
  const m = await waitForLine(proc.stdout, /rendered view=timeline requests=(\d+)/, 90_000, 'the timeline to render')
    .catch((e) => { proc.kill('SIGTERM'); throw new Error(`${e.message}\n${stderr}`); });
  return { proc, requests: Number(m[1]) };
}

// shot screenshots the screen once the window shows more than a blank.
async function shot(name) {
  mkdirSync(artifacts, { recursive: true });
  const png = join(artifacts, name);
  let colors = 0;
  for (const deadline = Date.now() + 20_000; Date.now() < deadline; ) {
    execFileSync('import', ['-window', 'root', png]);
    colors = distinctColors(png);
    if (colors > 200) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.ok(colors > 200, `the window looks blank: ${colors} distinct colours in ${png}`);
  return png;
}

// keys types key presses into the ctxscope window. Xvfb runs no window
// manager and its focus follows the pointer: the pointer rests on the
// window's brand (which no shortcut is bound to) while the keys go.
function keys(...names) {
  const win = execFileSync('xdotool', ['search', '--sync', '--onlyvisible', '--name', '^ctxscope$']).toString().trim().split('\n')[0];
  execFileSync('xdotool', ['mousemove', '--window', win, '30', '25']);
  execFileSync('xdotool', ['key', '--delay', '80', ...names]);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

test('the desktop window opens a Claude Code session in the debugger', { timeout: 150_000 }, async () => {
  assert.ok(process.env.DISPLAY, 'run under xvfb-run (make test-desktop)');
  const { proc, requests } = await launch(claudeSession);
  try {
    assert.equal(requests, 9, 'the main thread of the session has 9 requests');
    keys('g', 'j', 'j');
    await sleep(1500);
    await shot('desktop-debugger.png');
  } finally {
    proc.kill('SIGTERM');
  }
});

test('a hostile session is inert in the desktop window and none of it reaches Go', { timeout: 150_000 }, async () => {
  const beacon = await beaconServer();
  const hostile = hostileSession(beacon.url);
  const log = join(mkdtempSync(join(tmpdir(), 'ctxscope-calls-')), 'calls.jsonl');
  const { proc, requests } = await launch(hostile.path, { CTXSCOPE_CALL_LOG: log });
  try {
    assert.ok(requests > 10, `${requests} requests`);
    // Step through every request, and back through the evictions.
    keys('g', ...Array(requests).fill('j'), 'bracketleft', 'bracketleft', 'k', 'k');
    await sleep(2000);
    await shot('desktop-hostile.png');
  } finally {
    proc.kill('SIGTERM');
    await beacon.close();
  }
  const calls = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const methods = new Set(calls.map((c) => c.method));
  for (const m of ['Sessions.Initial', 'Debugger.Replay', 'Debugger.Context']) assert.ok(methods.has(m), `no ${m} call logged: ${[...methods]}`);
  const contexts = calls.filter((c) => c.method === 'Debugger.Context').length;
  assert.ok(contexts >= 5, `only ${contexts} context calls: the keys did not step`);
  for (const c of calls) {
    const args = JSON.stringify(c.args);
    for (const m of payloadMarkers) assert.ok(!args.includes(m), `${c.method} received ${m}: ${args.slice(0, 200)}`);
  }
  assert.deepEqual(beacon.hits, [], 'a payload fetched from the beacon');
});

test('a followed session grows in the desktop window (Wails events)', { timeout: 150_000 }, async () => {
  const lines = readFileSync(piLarge, 'utf8').trimEnd().split('\n');
  const path = join(mkdtempSync(join(tmpdir(), 'ctxscope-live-')), 'live-session.jsonl');
  writeFileSync(path, lines.slice(0, 400).join('\n') + '\n');
  const log = join(mkdtempSync(join(tmpdir(), 'ctxscope-calls-')), 'calls.jsonl');
  const { proc } = await launch(path, { CTXSCOPE_CALL_LOG: log });
  try {
    const following = waitForLine(proc.stdout, /following (\S+)/, 20_000, 'the app to follow the session');
    keys('l');
    await following;
    const before = readFileSync(log, 'utf8').trim().split('\n').length;
    appendFileSync(path, lines.slice(400, 600).join('\n') + '\n');
    // The frontend reacts to session:appended by reading the threads and
    // replaying again: its calls show in the log.
    let reacted = false;
    for (const deadline = Date.now() + 10_000; Date.now() < deadline && !reacted; await sleep(100)) {
      const calls = readFileSync(log, 'utf8').trim().split('\n').slice(before).map((l) => JSON.parse(l));
      reacted = calls.some((c) => c.method === 'Debugger.Threads') && calls.some((c) => c.method === 'Debugger.Replay');
    }
    assert.ok(reacted, 'the window did not react to the appended records');
    await sleep(1000);
    await shot('desktop-live.png');
  } finally {
    proc.kill('SIGTERM');
  }
});
