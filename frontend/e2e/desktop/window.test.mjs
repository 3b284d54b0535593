// Desktop smoke test: launch the real Wails binary under Xvfb (the Makefile
// runs this file inside xvfb-run), wait for the app to report that the
// timeline rendered, screenshot the screen and check it is not blank.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { artifacts, bin, distinctColors, newWorkspace, shared, waitForLine } from '../lib.mjs';

test('the desktop window renders a real session', { timeout: 120_000 }, async () => {
  assert.ok(process.env.DISPLAY, 'run under xvfb-run (make test-desktop)');
  const session = join(shared, 'sessions/pi/pi-cwl__large-session.jsonl');
  const proc = spawn(bin, ['--no-guide', '--workspace', newWorkspace(), session], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  proc.stderr.on('data', (d) => { stderr += d; });
  try {
    // The first launch can take long (font cache): wait for the app's own
    // signal, not a fixed sleep.
    const m = await waitForLine(proc.stdout, /rendered view=timeline requests=(\d+)/, 90_000, 'the timeline to render')
      .catch((e) => { throw new Error(`${e.message}\n${stderr}`); });
    assert.equal(m[1], '453');
    // WebKit presents the frame some time after the page has drawn it:
    // poll the screen until it shows (a blank window stays one colour).
    mkdirSync(artifacts, { recursive: true });
    const png = join(artifacts, 'desktop-window.png');
    let colors = 0;
    for (const deadline = Date.now() + 20_000; Date.now() < deadline; ) {
      execFileSync('import', ['-window', 'root', png]);
      colors = distinctColors(png);
      if (colors > 200) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    assert.ok(colors > 200, `the window looks blank: ${colors} distinct colours in ${png}`);
  } finally {
    proc.kill('SIGTERM');
  }
});
