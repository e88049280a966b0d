import { performance } from 'node:perf_hooks';
import { chromium, type Page } from 'playwright-core';
import type { SignInCode } from '../../shared/api-types.js';
import { CHROMIUM, CHROMIUM_ARGS } from '../e2e/kit/browser.js';
import { startBaseline } from './lib/baseline-server.js';
import { numberFlag } from './lib/flags.js';
import { childrenNamed, cpuBetween, treeCpuSeconds } from './lib/process-tree.js';
import { buildRenderer } from './lib/renderer-build.js';
import { buildMain, startServe, type ServeProcess } from './lib/serve-process.js';

/**
 * `npm run bench -- idle [--seconds 60] [--rounds 2]`: what an open, idle window costs (issue 12: less than
 * 0.2 CPU-s per minute). A compiled `pinfold serve` child and Chromium with the e2e kit's flags; in
 * alternation, for --seconds each, --rounds times:
 * - baseline: the same tab on a blank page from a bare HTTP server (the browser's own idle cost);
 * - pinfold: the tab signed in on /overview, its event stream open, nothing happening.
 * Measured: CPU seconds of the whole Chromium process tree and of the service over each span. The
 * window's cost is Chromium's CPU on the Overview page plus what the open window adds to the service.
 */

const BLANK_PAGE = `require('node:http').createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'text/html' });
  res.end('<!doctype html><title>blank</title><p>idle');
}).listen(0, '127.0.0.1', function () { console.log('listening ' + this.address().port); });
process.on('SIGTERM', () => process.exit(0));`;

interface Span {
  browser: number;
  service: number;
  seconds: number;
}

async function measure(browserPid: number, serve: ServeProcess, seconds: number): Promise<Span> {
  const browserBefore = treeCpuSeconds(browserPid);
  const serviceBefore = serve.cpuSeconds();
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  return {
    browser: cpuBetween(browserBefore, treeCpuSeconds(browserPid)),
    service: serve.cpuSeconds() - serviceBefore,
    seconds: (performance.now() - started) / 1000,
  };
}

async function signIn(page: Page, serve: ServeProcess): Promise<void> {
  const response = await fetch(`${serve.url}/api/v0/session/code?ts=${Math.floor(Date.now() / 1000)}`, {
    method: 'POST',
    headers: { 'X-Access-Key': serve.key.access_key, 'X-Access-Secret': serve.key.access_secret },
  });
  if (response.status !== 200) throw new Error(`session/code: ${response.status} ${await response.text()}`);
  const { data } = (await response.json()) as { data: SignInCode };
  await page.goto(data.url);
  await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor({ timeout: 60_000 });
}

/** A page's loading is not idle: each span starts this long after its page was opened. */
const SETTLE_MS = 5000;

const perMinute = (cpu: number, seconds: number) => (cpu * 60) / seconds;

export async function run(args: readonly string[]): Promise<void> {
  const seconds = numberFlag(args, 'seconds', 60);
  const rounds = Math.round(numberFlag(args, 'rounds', 2));
  process.stdout.write(`idle benchmark: ${rounds} rounds of ${seconds} s per side (compiled pinfold serve child, Chromium headless)\n`);
  buildMain();
  buildRenderer();
  const serve = await startServe({ compiled: true });
  const blank = await startBaseline(BLANK_PAGE);
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  try {
    // Playwright's Browser does not name its process: the one Chromium child of this process is it.
    const [browserPid, ...others] = childrenNamed(process.pid, /chrom/i);
    if (browserPid === undefined || others.length > 0) throw new Error('expected exactly one Chromium started by this benchmark');
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
    await signIn(page, serve);
    const baseline: Span[] = [];
    const pinfold: Span[] = [];
    for (let round = 0; round < rounds; round++) {
      await page.goto(blank.url);
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      baseline.push(await measure(browserPid, serve, seconds));
      await page.goto(`${serve.url}/overview`);
      await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor({ timeout: 60_000 });
      // Settled: the page's first requests answered and drawn, before the idle span starts.
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      pinfold.push(await measure(browserPid, serve, seconds));
      const [b, p] = [baseline.at(-1) as Span, pinfold.at(-1) as Span];
      process.stdout.write(
        `  round ${round + 1}: blank page: browser ${perMinute(b.browser, b.seconds).toFixed(3)} CPU-s/min, service ${perMinute(b.service, b.seconds).toFixed(3)}; ` +
          `Overview: browser ${perMinute(p.browser, p.seconds).toFixed(3)}, service ${perMinute(p.service, p.seconds).toFixed(3)}\n`,
      );
    }
    const sum = (spans: Span[], pick: (span: Span) => number) => spans.reduce((total, span) => total + pick(span), 0);
    const rate = (spans: Span[], pick: (span: Span) => number) =>
      perMinute(
        sum(spans, pick),
        sum(spans, (span) => span.seconds),
      );
    const blankBrowser = rate(baseline, (span) => span.browser);
    const serviceAlone = rate(baseline, (span) => span.service);
    const windowBrowser = rate(pinfold, (span) => span.browser);
    const serviceWithWindow = rate(pinfold, (span) => span.service);
    // What keeping the window open costs: the browser on the page, and what the window adds to the service.
    const windowCost = windowBrowser + Math.max(0, serviceWithWindow - serviceAlone);
    const baselineCost = blankBrowser;
    process.stdout.write(
      `  blank page:  browser ${blankBrowser.toFixed(3)} CPU-s/min (service alone ${serviceAlone.toFixed(3)})\n` +
        `  Overview:    browser ${windowBrowser.toFixed(3)} CPU-s/min, service ${serviceWithWindow.toFixed(3)}\n` +
        `  the open window costs ${windowCost.toFixed(3)} CPU-s/min (target < 0.2: ${windowCost < 0.2 ? 'met' : 'NOT met'})\n`,
    );
    process.stdout.write(
      `RESULT idle ratio=${(windowCost / baselineCost).toFixed(3)} window_cpu_s_per_min=${windowCost.toFixed(3)} blank_page_cpu_s_per_min=${baselineCost.toFixed(3)} ` +
        `window_browser_cpu_s_per_min=${windowBrowser.toFixed(3)} service_alone_cpu_s_per_min=${serviceAlone.toFixed(3)} service_with_window_cpu_s_per_min=${serviceWithWindow.toFixed(3)} seconds=${seconds} rounds=${rounds}\n`,
    );
  } finally {
    await browser.close();
    await blank.stop();
    await serve.stop();
  }
}

export default run;
