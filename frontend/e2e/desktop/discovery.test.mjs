// Discovery in the real desktop window under Xvfb: a workspace with
// "Watch agent folders" on resumes it when the window starts (the
// platform is ready only then), and a session an agent writes into its
// folder reaches the Sessions view through a Wails event. The call log
// (CTXSCOPE_CALL_LOG) shows the view reading the list again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { artifacts, bin, distinctColors, newWorkspace, shared, startServeWithEnv, waitForLine } from '../lib.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// listCalls counts the Sessions.List calls in the call log.
function listCalls(log) {
  let text = '';
  try {
    text = readFileSync(log, 'utf8');
  } catch {
    return 0;
  }
  return text.split('\n').filter((l) => l.includes('"Sessions.List"')).length;
}

test('a session written into a watched agent folder appears in the desktop window', { timeout: 150_000 }, async () => {
  assert.ok(process.env.DISPLAY, 'run under xvfb-run (make test-desktop)');
  const home = mkdtempSync(join(tmpdir(), 'ctxscope-home-'));
  const project = join(home, '.claude', 'projects', '-work-demo');
  mkdirSync(project, { recursive: true });
  const ws = newWorkspace();

  // Turn discovery on in the workspace, as the checkbox does.
  const server = await startServeWithEnv({ HOME: home }, '--workspace', ws);
  const resp = await server.call('Live', 'SetDiscovery', [true]);
  assert.equal(resp.status, 200, await resp.text());
  const exited = new Promise((r) => server.proc.on('exit', r));
  server.stop();
  await exited;

  const log = join(mkdtempSync(join(tmpdir(), 'ctxscope-calls-')), 'calls.jsonl');
  const proc = spawn(bin, ['--no-guide', '--workspace', ws], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, HOME: home, CTXSCOPE_CALL_LOG: log } });
  let stderr = '';
  proc.stderr.on('data', (d) => { stderr += d; });
  try {
    // One line waiter at a time: each reads the same stream. Discovery
    // resumes as the window starts, before the first view renders.
    await waitForLine(proc.stdout, /discovery: watching/, 90_000, 'discovery to resume').catch((e) => { throw new Error(`${e.message}\n${stderr}`); });
    await waitForLine(proc.stdout, /rendered view=timeline/, 90_000, 'the first view').catch((e) => { throw new Error(`${e.message}\n${stderr}`); });
    // Alt+2 opens the Sessions view; the keyboard follows the pointer.
    execFileSync('xdotool', ['mousemove', '600', '60', 'key', 'alt+2']);
    for (const deadline = Date.now() + 20_000; Date.now() < deadline && listCalls(log) === 0; ) await sleep(100);
    const before = listCalls(log);
    assert.ok(before > 0, 'the Sessions view did not open');

    const source = join(shared, 'sessions/claude-code/claude-code-viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl');
    writeFileSync(join(project, 'fe5e1c67.jsonl'), readFileSync(source));
    for (const deadline = Date.now() + 10_000; Date.now() < deadline && listCalls(log) === before; ) await sleep(100);
    assert.ok(listCalls(log) > before, 'the window did not hear of the discovered session');

    mkdirSync(artifacts, { recursive: true });
    const png = join(artifacts, 'desktop-discovered.png');
    let colors = 0;
    for (const deadline = Date.now() + 20_000; Date.now() < deadline && colors <= 200; await sleep(250)) {
      execFileSync('import', ['-window', 'root', png]);
      colors = distinctColors(png);
    }
    assert.ok(colors > 200, `the window looks blank: ${colors} distinct colours`);
  } finally {
    proc.kill('SIGTERM');
  }
});
