// Helpers of the debugger's browser tests: open a session by path, read
// the current request, build large real sessions by concatenation.
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shared } from './lib.mjs';

export const claudeSession = join(shared, 'sessions/claude-code/claude-code-viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl');
export const piLarge = join(shared, 'sessions/pi/pi-cwl__large-session.jsonl');
export const piBeforeCompaction = join(shared, 'sessions/pi/pi-cwl__before-compaction.jsonl');

// openPath opens a session file through the path field and waits until
// its timeline shows.
export async function openPath(page, path) {
  await page.fill('[data-testid=path-input]', path);
  await page.click('[data-testid=open-path]');
  await page.waitForFunction((p) => document.querySelector('[data-testid=session-title]')?.getAttribute('title') === p, path, { timeout: 60_000 });
  await page.waitForSelector('[data-testid=timeline] canvas');
}

// step returns the current request (1-based) as the timeline reports it.
export async function step(page) {
  return Number(await page.getAttribute('[data-testid=timeline]', 'aria-valuenow'));
}

// waitStep waits until the current request is k (1-based).
export async function waitStep(page, k) {
  await page.waitForFunction((k) => document.querySelector('[data-testid=timeline]')?.getAttribute('aria-valuenow') === String(k), k);
}

// waitContext waits until the context view shows request k (1-based).
export async function waitContext(page, k) {
  await page.waitForFunction((k) => document.querySelector('[data-testid=request-detail]')?.textContent?.startsWith(`Request ${k} `)
    && document.querySelector('[data-testid=context]') !== null, k);
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
