import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

/**
 * The README's picture of the window (docs/images/window.png), taken the way a user sees it: the built
 * service (`npm run build` first) run as `pinfold serve` on a fresh data folder, given some everyday
 * content through its API (pinned files, a name, three sync folders, one edited after its first sync),
 * and the window opened in Chromium through a one-time sign-in link. Run it again after the window
 * changes: `node --import tsx scripts/window-screenshot.ts [page] [output.png]` (page: `/sync` unless given).
 */
const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/** What each page shows last of the content made below, once its lists are filled. */
const LAST_ITEM: Readonly<Record<string, string>> = { '/sync': 'Notes', '/pins': 'survey-results.csv', '/names': 'report', '/files': 'Files' };

interface OwnerKey {
  access_key: string;
  access_secret: string;
}

interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

/** A call as the owner, with the secret in its header (the plain way; SDKs may sign instead). */
async function call<T>(base: string, owner: OwnerKey, method: string, path: string, query: Record<string, string> = {}, body?: unknown): Promise<T> {
  const url = new URL(path, base);
  for (const [name, value] of Object.entries({ ...query, ts: String(Math.floor(Date.now() / 1000)) })) url.searchParams.set(name, value);
  const headers: Record<string, string> = { 'X-Access-Key': owner.access_key, 'X-Access-Secret': owner.access_secret };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const answer = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const envelope = (await answer.json()) as Envelope<T>;
  if (envelope.code !== 200) throw new Error(`${method} ${path} answered ${envelope.code}: ${envelope.msg}`);
  return envelope.data;
}

/** A file uploaded in the hosted service's two steps and pinned under `name`; answers its CID. */
async function uploadAndPin(base: string, owner: OwnerKey, name: string, bytes: Uint8Array): Promise<string> {
  const { url } = await call<{ url: string }>(base, owner, 'POST', '/ipfs/', { size: String(bytes.length) });
  const stored = await fetch(url, { method: 'POST', body: bytes, headers: { 'Content-Type': 'application/octet-stream' } });
  const cid = stored.headers.get('ipfs-hash');
  if (cid === null) throw new Error(`upload of ${name} answered ${stored.status}`);
  await call(base, owner, 'POST', '/api/v0/pin/add', { arg: cid, name });
  return cid;
}

async function writeFiles(root: string, files: Record<string, string | number>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), typeof content === 'number' ? randomBytes(content) : content);
  }
}

/** Polls the sync list until every folder is up to date (`idle`) with a root, or the deadline passes. */
async function syncSettled(base: string, owner: OwnerKey, deadlineMs = 60_000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const rows = await call<{ state: string; root: string }[]>(base, owner, 'GET', '/api/v0/sync');
    if (rows.every((row) => row.state === 'idle' && row.root !== '')) return;
    if (Date.now() > deadline) throw new Error(`sync folders not settled: ${JSON.stringify(rows)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function main(page = '/sync', output = join(repoRoot, 'docs/images/window.png')): Promise<void> {
  const home = await mkdtemp(join(tmpdir(), 'pinfold-'));
  const data = join(home, 'data');
  const server = spawn(process.execPath, [join(repoRoot, 'bin/pinfold.js'), 'serve', '--data', data, '--port', '0', '--offline'], {
    env: { ...process.env, PINFOLD_OWNER_KEY: '', PINFOLD_OWNER_SECRET: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const base = await new Promise<string>((resolve, reject) => {
      createInterface({ input: server.stdout }).on('line', (line) => {
        const listening = /^Pinfold listening on (\S+)/.exec(line);
        if (listening) resolve(listening[1] as string);
      });
      server.once('exit', (code) => reject(new Error(`pinfold serve exited (${code ?? 'signal'}) before listening`)));
    });
    const owner = JSON.parse(await readFile(join(data, 'owner-key.json'), 'utf8')) as OwnerKey;

    const report = await uploadAndPin(base, owner, 'annual-report-2024.pdf', randomBytes(2_400_000));
    await uploadAndPin(base, owner, 'podcast-episode-12.mp3', randomBytes(5_800_000));
    await uploadAndPin(base, owner, 'survey-results.csv', new TextEncoder().encode('respondent,score\n1,4\n2,5\n3,3\n'));
    await call(base, owner, 'POST', '/api/v0/name/create', { arg: report, alias: 'report' });

    const website = join(home, 'Website');
    await writeFiles(website, {
      'index.html': '<h1>Field notes</h1>\n',
      'about.html': '<h1>About</h1>\n',
      'css/site.css': 'body { font: 16px system-ui; }\n',
      'images/cover.jpg': 420_000,
    });
    await writeFiles(join(home, 'Photos'), { '2024/lake.jpg': 3_100_000, '2024/forest.jpg': 2_700_000, '2025/harbour.jpg': 3_400_000 });
    await writeFiles(join(home, 'Notes'), { 'ideas.md': '# Ideas\n', 'reading-list.md': '# Reading list\n', 'meetings/2025-03-04.md': '# Planning\n' });
    for (const folder of ['Website', 'Photos', 'Notes']) await call(base, owner, 'POST', '/api/v0/sync/add', {}, { path: join(home, folder) });
    await writeFile(join(website, 'index.html'), '<h1>Field notes</h1>\n<p>Spring issue</p>\n');
    await syncSettled(base, owner);

    const { url } = await call<{ url: string }>(base, owner, 'POST', '/api/v0/session/code');
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
    try {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light', deviceScaleFactor: 1 });
      const window = await context.newPage();
      await window.goto(url);
      await window.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
      await window.goto(new URL(page, base).href);
      await window.getByRole('heading', { level: 1 }).waitFor();
      // The lists fill after the heading (the event stream keeps the network busy, so no "network idle"):
      // wait for the page's last item, no "Loading…" left, and two frames drawn.
      await window
        .getByText(LAST_ITEM[page] ?? 'Pinfold', { exact: true })
        .first()
        .waitFor();
      await window.getByText('Loading…').first().waitFor({ state: 'detached' });
      await window.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
      await mkdir(dirname(output), { recursive: true });
      await window.screenshot({ path: output, animations: 'disabled' });
      process.stdout.write(`${output}\n`);
    } finally {
      await browser.close();
    }
  } finally {
    server.kill('SIGTERM');
    if (server.exitCode === null) await once(server, 'exit');
    await rm(home, { recursive: true, force: true });
  }
}

await main(process.argv[2], process.argv[3]);
