// Helpers shared by the end-to-end tests: start the real binary in serve
// mode, drive Debian's Chromium with playwright-core, keep screenshots.
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { after, before } from 'node:test';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const repo = resolve(here, '../..');
export const shared = resolve(repo, 'testdata/shared');
export const bin = process.env.CTXSCOPE_BIN ?? join(repo, 'build/bin/ctxscope');
export const artifacts = process.env.CTXSCOPE_ARTIFACTS ?? join(repo, 'artifacts');

// waitForLine resolves with the first line of stream matching re, or
// rejects after ms milliseconds.
export function waitForLine(stream, re, ms, what) {
  return new Promise((resolveLine, reject) => {
    const rl = createInterface({ input: stream });
    const timer = setTimeout(() => { rl.close(); reject(new Error(`timed out after ${ms} ms waiting for ${what}`)); }, ms);
    rl.on('line', (line) => {
      const m = line.match(re);
      if (m) { clearTimeout(timer); rl.close(); resolveLine(m); }
    });
  });
}

// newWorkspace returns a fresh workspace directory, so that tests never
// touch the user's own.
export function newWorkspace() {
  return mkdtempSync(join(tmpdir(), 'ctxscope-ws-'));
}

// startServe runs `ctxscope serve` on a fresh workspace (unless args name
// one) and resolves with its URL and process.
export async function startServe(...args) {
  return startServeWithEnv({}, ...args);
}

// startServeWithEnv is startServe with extra environment variables for the
// server (HOME, for one).
export async function startServeWithEnv(env, ...args) {
  const workspace = args.includes('--workspace') ? args[args.indexOf('--workspace') + 1] : newWorkspace();
  const ws = args.includes('--workspace') ? [] : ['--workspace', workspace];
  const guide = args.includes('--guide') ? [] : ['--no-guide'];
  const rest = args.filter((a) => a !== '--guide');
  const proc = spawn(bin, [...ws, ...guide, 'serve', '--addr', '127.0.0.1:0', ...rest],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let stderr = '';
  proc.stderr.on('data', (d) => { stderr += d; });
  const m = await waitForLine(proc.stdout, /serving at (http:\/\/\S+)/, 20_000, 'the serve URL').catch((e) => {
    proc.kill();
    throw new Error(`${e.message}\n${stderr}`);
  });
  const url = new URL(m[1]);
  const token = new URLSearchParams(url.hash.slice(1)).get('token') ?? url.searchParams.get('token');
  const linkFor = (tok, fragment = '') => `${url.origin}/#token=${tok}${fragment ? '&' + fragment.replace(/^#/, '') : ''}`;
  return {
    url, origin: url.origin, token, proc, workspace, stderr: () => stderr, stop: () => proc.kill('SIGTERM'),
    // pageURL is the printed link with view state added to its fragment.
    pageURL: (fragment = '') => linkFor(token, fragment),
    // userPageURL is pageURL signed in with a user's token instead.
    userPageURL: (userToken, fragment = '') => linkFor(userToken, fragment),
    // call posts a bound-method call as the page does, token in its header.
    call: (service, method, args = []) => fetch(`${url.origin}/api/call/${service}/${method}`,
      { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Ctxscope-Token': token }, body: JSON.stringify(args) }),
  };
}

// startModelServer builds and runs the tests' model server
// (engine/modeltest/cmd/modelserver), which answers each request after
// delay; it returns its URL and process.
export async function startModelServer(workdir, delay) {
  const out = join(repo, 'build/bin/modelserver');
  execFileSync('go', ['build', '-o', out, './engine/modeltest/cmd/modelserver'], { cwd: repo, stdio: 'inherit' });
  const proc = spawn(out, ['-workdir', workdir, '-delay', delay], { stdio: ['ignore', 'pipe', 'inherit'] });
  const m = await waitForLine(proc.stdout, /^(http:\/\/\S+)$/, 20_000, 'the model server URL');
  return { url: m[1], proc };
}

// createUserToken makes a token for a user of a workspace (the directory,
// or with store a PostgreSQL URL) with `ctxscope token create`, and
// returns it.
export function createUserToken(workspace, name, role = 'member', store = '') {
  const where = store ? ['--store', store] : ['--workspace', workspace];
  return execFileSync(bin, [...where, 'token', 'create', '--role', role, name], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
}

// launchBrowser starts Debian's Chromium headless with root-safe flags.
// Playwright gives each launch a new empty profile.
export async function launchBrowser() {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic',
      '--no-first-run', '--disable-component-update', '--disable-sync'],
  });
}

// screenshot saves a page screenshot under artifacts/.
export async function screenshot(page, name) {
  mkdirSync(artifacts, { recursive: true });
  const path = join(artifacts, name);
  await page.screenshot({ path, fullPage: true });
  return path;
}

// distinctColors counts the colours of a PNG with ImageMagick.
export function distinctColors(png) {
  return Number(execFileSync('convert', [png, '-format', '%k', 'info:']).toString().trim());
}

// serveForSuite registers node:test hooks that start one `ctxscope serve`
// (startServe's arguments) and one browser before a test file's tests and
// stop them after, and returns the object whose server and browser fields
// they set.
export function serveForSuite(...args) {
  const suite = { server: null, browser: null };
  before(async () => {
    suite.server = await startServe(...args);
    suite.browser = await launchBrowser();
  });
  after(async () => {
    await suite.browser?.close();
    suite.server?.stop();
  });
  return suite;
}

// recordFrames starts recording, in page, the time between animation
// frames. It returns the function that stops and returns them, the first
// (partial) one left out.
export async function recordFrames(page) {
  await page.evaluate(() => {
    window.__frames = [];
    window.__stopFrames = false;
    let last = performance.now();
    const tick = (t) => {
      window.__frames.push(t - last);
      last = t;
      if (window.__frames.length < 100000 && !window.__stopFrames) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  return () => page.evaluate(() => { window.__stopFrames = true; return window.__frames.slice(1); });
}
