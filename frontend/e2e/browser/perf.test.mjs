// Performance of the debugger, measured in a real browser against serve
// mode and written to artifacts/bench/debugger.json (docs/bench/debugger.md
// reports them). The figures are recorded, not asserted against targets:
// the machine is shared and its timings vary.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { launchBrowser, recordFrames, screenshot, startServe } from '../lib.mjs';
import { concatPi, dragTau, openPath, piBeforeCompaction, recordBench, scrubTimeline, stats } from '../debugger-helpers.mjs';

let browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

const perfLog = (page) => page.evaluate(() => window.__ctxscopePerf ?? { firstDraw: [], tau: [], replyMs: [] });

test('first paint of the 2.4 MB pi session', { timeout: 120_000 }, async () => {
  // Serve opens the file at start (import included in the first load).
  const server = await startServe(piBeforeCompaction);
  try {
    const cold = [];
    const warm = [];
    for (let i = 0; i < 4; i++) {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      await page.goto(i === 0 ? server.url.href : server.url.href);
      await page.waitForFunction(() => (window.__ctxscopePerf?.firstDraw.length ?? 0) > 0, null, { timeout: 60_000 });
      const log = await perfLog(page);
      (i === 0 ? cold : warm).push(log.firstDraw[0].at);
      assert.ok(log.firstDraw[0].requests > 400, `${log.firstDraw[0].requests} requests drawn`);
      if (i === 0) await screenshot(page, 'perf-first-paint.png');
      await page.close();
    }
    const s = stats(warm);
    recordBench({
      firstPaintCold: { ms: Math.round(cold[0]), what: 'navigation → first timeline draw, pi-cwl__before-compaction.jsonl (2.4 MB) imported by this first load' },
      firstPaintWarm: { ...s, unit: 'ms', what: 'navigation → first timeline draw, the same session already in the workspace' },
    });
    console.log('first paint cold', cold, 'warm', s);
  } finally {
    server.stop();
  }
});

test('τ change to redraw on a 1M-token session', { timeout: 300_000 }, async () => {
  const path = concatPi(9);
  const server = await startServe();
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(server.url.href);
    await page.waitForSelector('[data-testid=timeline] canvas');
    const t0 = Date.now();
    await openPath(page, path);
    const openMs = Date.now() - t0;
    const n = Number(await page.textContent('[data-testid=request-count]'));
    await page.selectOption('[data-testid=episodes]', 'inferred');
    await page.waitForFunction(() => document.querySelector('[data-testid=timeline]')?.dataset.requests !== undefined);
    await page.evaluate(() => { window.__ctxscopePerf.tau.length = 0; window.__ctxscopePerf.replyMs.length = 0; });
    // Typed budgets, one at a time.
    for (const b of [200_000, 400_000, 150_000, 600_000, 300_000, 800_000, 250_000, 500_000]) {
      const before = (await perfLog(page)).tau.length;
      await page.fill('[data-testid=tau-input]', String(b));
      await page.press('[data-testid=tau-input]', 'Enter');
      await page.waitForFunction((n) => window.__ctxscopePerf.tau.length > n, before);
    }
    const typed = (await perfLog(page)).tau.slice();
    const typedReply = (await perfLog(page)).replyMs.slice();
    // A drag of the slider: the replay follows the hand, one run at a time.
    await page.evaluate(() => { window.__ctxscopePerf.tau.length = 0; });
    await dragTau(page, 0.2, 0.015);
    await page.waitForTimeout(500);
    const dragged = (await perfLog(page)).tau.slice();
    const evictions = Number(await page.getAttribute('[data-testid=eviction-count]', 'data-count'));
    assert.ok(evictions > 0, 'the drag ended at a budget that evicts');
    await screenshot(page, 'perf-1m-tau.png');
    // The context at the last request, the heaviest one, from the first.
    await page.keyboard.press('Escape');
    await page.keyboard.press('g');
    await page.waitForFunction(() => document.querySelector('[data-testid=request-detail]')?.textContent?.startsWith('Request 1 ')
      && !document.querySelector('.updating') && document.querySelector('[data-testid=ctx-row]'), null, { timeout: 60_000 });
    const c0 = Date.now();
    await page.keyboard.press('G');
    await page.waitForFunction((n) => document.querySelector('[data-testid=request-detail]')?.textContent?.startsWith(`Request ${n} `)
      && !document.querySelector('.updating') && document.querySelector('[data-testid=ctx-row]'), n, { timeout: 60_000 });
    const contextMs = Date.now() - c0;
    const peak = Number(await page.getAttribute('[data-testid=timeline]', 'data-peak'));
    recordBench({
      tauTyped: { ...stats(typed), unit: 'ms', what: `τ typed → timeline redrawn, ${n} requests, inferred episodes, paper policy` },
      tauTypedReply: { ...stats(typedReply), unit: 'ms', what: 'of τ typed → redrawn: the Debugger.Replay call alone (HTTP, Go, JSON both ways)' },
      tauDragged: { ...stats(dragged), unit: 'ms', what: 'slider drag (41 moves, 16 ms apart) → each redraw, from the input that redraw shows' },
      oneMillion: { requests: n, peakInputUncapped: peak, openMs, contextAtLastMs: contextMs },
    });
    console.log('tau typed', stats(typed), 'dragged', stats(dragged), 'open', openMs, 'context', contextMs, 'n', n);
    await page.close();
  } finally {
    server.stop();
    rmSync(dirname(path), { recursive: true, force: true });
  }
});

test('scrubbing the timeline at 5,000 requests', { timeout: 300_000 }, async () => {
  const path = concatPi(12);
  const server = await startServe();
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(server.url.href);
    await page.waitForSelector('[data-testid=timeline] canvas');
    await openPath(page, path);
    const n = Number(await page.textContent('[data-testid=request-count]'));
    assert.ok(n >= 5000, `${n} requests`);
    // Let the first load settle: the context of the last request is shown.
    await page.waitForFunction(() => document.querySelector('[data-testid=ctx-row]') && !document.querySelector('.updating'), null, { timeout: 60_000 });
    await page.waitForTimeout(500);
    const budget = 1000 / 60;
    // scrub drags across the whole timeline, one move per animation frame,
    // and returns every frame's duration.
    const scrub = async (rightward) => {
      const frames = await recordFrames(page);
      await scrubTimeline(page, rightward);
      return frames();
    };
    const report = (frames) => ({ requests: n, frames: frames.length, ...stats(frames), unit: 'ms per frame',
      over25ms: frames.filter((f) => f > budget * 1.5).length });
    const longFrames = (frames) => frames.map((f, i) => [i, Math.round(f)]).filter(([, f]) => f > budget * 1.5).map(([i, f]) => `${i}:${f}`).join(' ');

    // Right after the import, while the app indexes the new 10 MB session
    // for search in the background (about 3 s of both cores).
    const during = await scrub(true);
    const k = Number(await page.getAttribute('[data-testid=timeline]', 'aria-valuenow'));
    assert.ok(k > n * 0.95, `the scrub ended at request ${k} of ${n}`);
    // A workspace search waits for the index to catch up; then scrub back.
    await page.evaluate(async () => {
      const token = sessionStorage.getItem('ctxscope.token');
      const r = await fetch('/api/call/Debugger/Search', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Ctxscope-Token': token }, body: JSON.stringify(['compaction', '', 1]) });
      if (!r.ok) throw new Error(await r.text());
    });
    await page.waitForTimeout(500);
    const settled = await scrub(false);
    assert.ok(Number(await page.getAttribute('[data-testid=timeline]', 'aria-valuenow')) < n * 0.05, 'the scrub back ended near the first request');
    recordBench({
      scrub: { ...report(settled), what: 'mouse scrub across the whole timeline, one move per animation frame, the session indexed; frames longer than 1.5 × 16.7 ms counted as dropped' },
      scrubWhileIndexing: { ...report(during), what: 'the same scrub right after the import, while the app indexes the session in the background' },
    });
    console.log('scrub', n, 'settled', stats(settled), 'dropped at', longFrames(settled), '| while indexing', stats(during), 'dropped at', longFrames(during));
    await screenshot(page, 'perf-scrub-5000.png');
    await page.close();
  } finally {
    server.stop();
    rmSync(dirname(path), { recursive: true, force: true });
  }
});
