// Desktop smoke test of the memory explorer: the real Wails binary under
// Xvfb on a workspace holding LoCoMo conversation 0's memory (built with
// the CLI); the Memory tab is clicked with xdotool, and the test waits for
// the app to report that the WebGL graph drew, then checks the screen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { artifacts, bin, distinctColors, newWorkspace, shared, waitForLine } from '../lib.mjs';

// colourPixels counts the pixels of a PNG within 4% of a colour.
function colourPixels(png, colour) {
  const out = execFileSync('convert', [png, '-fuzz', '4%', '-fill', 'black', '+opaque', colour, '-fill', 'white', '-opaque', colour,
    '-colorspace', 'gray', '-format', '%[fx:mean*w*h]', 'info:']).toString();
  return Math.round(Number(out));
}

test('the desktop window draws a memory graph', { timeout: 180_000 }, async () => {
  assert.ok(process.env.DISPLAY, 'run under xvfb-run (make test-desktop)');
  const ws = newWorkspace();
  const built = execFileSync(bin, ['--workspace', ws, 'memory', 'build', '--locomo', join(shared, 'locomo/locomo10.json'), '--sample', '0']).toString();
  // The build's own table says how many entities the graph has.
  const entities = built.match(/^\s*conv-26\s+\d+\s+(\d+)\s/m)?.[1];
  assert.ok(entities, built);
  const proc = spawn(bin, ['--no-guide', '--workspace', ws], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  proc.stderr.on('data', (d) => { stderr += d; });
  try {
    await waitForLine(proc.stdout, /rendered view=timeline/, 90_000, 'the first view').catch((e) => { throw new Error(`${e.message}\n${stderr}`); });
    const drawn = waitForLine(proc.stdout, /rendered view=memory-graph requests=(\d+)/, 60_000, 'the memory graph to draw')
      .catch((e) => new Error(`${e.message}\n${stderr}`));
    // Alt+3 switches to the Memory view (the third tab), wherever the
    // tabs are drawn. Without a window manager the keyboard follows the
    // pointer, so the pointer is put over the window's header first.
    execFileSync('xdotool', ['mousemove', '600', '60', 'key', 'alt+3']);
    const m = await drawn;
    if (m instanceof Error) throw m;
    assert.equal(m[1], entities, `the window draws the ${entities} entities the build reported`);
    mkdirSync(artifacts, { recursive: true });
    const png = join(artifacts, 'desktop-memory.png');
    // WebKit presents frames late: poll until the screen shows entity
    // discs in the entity colour (#8b7cf6) drawn by WebGL.
    let discs = 0;
    for (const deadline = Date.now() + 20_000; Date.now() < deadline; ) {
      execFileSync('import', ['-window', 'root', png]);
      discs = colourPixels(png, '#8b7cf6');
      if (discs > 150) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    assert.ok(discs > 150, `no graph on screen: ${discs} pixels of the entity colour in ${png}`);
    assert.ok(distinctColors(png) > 200);
  } finally {
    proc.kill('SIGTERM');
  }
});
