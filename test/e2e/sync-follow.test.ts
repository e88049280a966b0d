/**
 * Following a folder in Chromium (issue 24): two `pinfold serve` on loopback, A syncing a real folder as a
 * public gateway, B the window's service, fetching from A. In B's desktop window (stubbed bridge): Follow a
 * folder with A's gateway link and the picker, the followed row (Following, from where, the version, the last
 * check), the folder's page (source, version held, last check), a local edit kept beside A's edit and listed
 * under Local changes, and Discard local changes after its confirmation; the form's refusals beside their
 * fields, and a folder dropped while the form is open as its target. Two machines, one name: B's sync folder
 * publishing the key A also publishes shows the conflict, and Publish mine anyway publishes over it.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { privateKeyToProtobuf } from '@libp2p/crypto/keys';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generateNameKey, nameOfKey } from '../../main/names/keys.js';
import type { SyncFolderView } from '../../shared/api-types.js';
import { until } from '../helpers/until.js';
import { axeCheck, launchBrowser, newContext, screenshots, startService, stubBridge, type BridgeStub, type E2eService } from './kit/index.js';

let source: E2eService;
let follower: E2eService;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let scratch: string;
const oldDataHome = process.env['XDG_DATA_HOME'];

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'pinfold-e2e-follow-'));
  // The services inherit it: what the follower moves to the trash goes to the test's own trash.
  process.env['XDG_DATA_HOME'] = join(scratch, 'xdg');
  [source, browser] = await Promise.all([startService(['--public-gateway']), launchBrowser()]);
  follower = await startService(['--fetch-from', source.url, '--routing', source.url]);
});

afterAll(async () => {
  await browser?.close();
  await Promise.all([source?.dispose(), follower?.dispose()]);
  if (oldDataHome === undefined) delete process.env['XDG_DATA_HOME'];
  else process.env['XDG_DATA_HOME'] = oldDataHome;
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

beforeEach(async () => {
  context = await newContext(browser);
  page = await context.newPage();
});

afterEach(async () => {
  await context.close();
  for (const service of [source, follower]) {
    for (const row of await rows(service)) await service.call('POST', '/api/v0/sync/rm', { query: { id: row.id } });
  }
});

async function rows(service: E2eService): Promise<SyncFolderView[]> {
  const answer = await service.call<{ data: SyncFolderView[] }>('GET', '/api/v0/sync');
  expect(answer.status, answer.text).toBe(200);
  return answer.json.data;
}

async function folderWith(name: string, files: Record<string, string> = {}): Promise<string> {
  const dir = join(scratch, name);
  await mkdir(dir, { recursive: true });
  for (const [relative, content] of Object.entries(files)) {
    await mkdir(join(dir, relative, '..'), { recursive: true });
    await writeFile(join(dir, relative), content);
  }
  return dir;
}

/** A sync folder on A, added through its API, once its first version is published under its name. */
async function syncedOnSource(path: string): Promise<SyncFolderView> {
  const answer = await source.call<{ data: { id: string } }>('POST', '/api/v0/sync/add', { body: { path } });
  expect(answer.status, answer.text).toBe(200);
  return until('the source folder to be published', async () => {
    const row = (await rows(source)).find((entry) => entry.id === answer.json.data.id);
    return row && row.state === 'idle' && row.root !== '' && row.ipns_name !== '' ? row : undefined;
  });
}

/** A's folder once its root changed from `before` (an edit settled and published). */
async function sourceRootAfter(id: string, before: string): Promise<string> {
  return until('the edit on the source to settle', async () => {
    const row = (await rows(source)).find((entry) => entry.id === id);
    return row && row.state === 'idle' && row.root !== before ? row.root : undefined;
  });
}

async function openDesktop(stub: Partial<BridgeStub> = {}): Promise<void> {
  await stubBridge(context, { ownerKey: follower.owner, ...stub });
  await page.goto(`${follower.url}/sync`);
  await page.getByRole('heading', { level: 1, name: 'Sync' }).waitFor();
}

/** Drops items named `names` on the page (the bridge stub locates them by name). A string script: no DOM types here. */
async function drop(names: string[]): Promise<void> {
  await page.evaluate(`(() => {
    const data = new DataTransfer();
    for (const name of ${JSON.stringify(names)}) data.items.add(new File(['x'], name));
    for (const type of ['dragenter', 'dragover', 'drop']) {
      document.body.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: data }));
    }
  })()`);
}

const followDialog = (): Locator => page.getByRole('dialog', { name: 'Follow a folder' });
const folderRow = (name: string): Locator =>
  page
    .getByRole('table', { name: 'Sync folders' })
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name, exact: true }) });

describe('Follow a folder', () => {
  it("follows A's folder into a picked folder, shows it, keeps a local edit beside A's, and discards it", async () => {
    const site = await folderWith('site', { 'index.html': '<h1>one</h1>', 'docs/guide.md': 'guide', 'notes.txt': 'notes' });
    const synced = await syncedOnSource(site);
    const mirror = await folderWith('mirror');
    await openDesktop({ pickedFolder: mirror });

    await page.getByRole('button', { name: 'Follow a folder' }).click();
    const dialog = followDialog();
    await dialog.getByLabel('IPNS name to follow').fill(`${source.url}/ipns/${synced.ipns_name}`);
    await dialog.getByRole('button', { name: 'Choose…' }).click();
    expect(await dialog.getByLabel('Folder on this computer').inputValue()).toBe(mirror);
    await axeCheck(page, 'Follow a folder, filled');
    await dialog.getByRole('button', { name: 'Follow', exact: true }).click();
    await followDialog().waitFor({ state: 'hidden' });
    await page.getByText('Following into mirror: its first version is on the way.').waitFor();

    // The row: marked as followed, from A's gateway, the version held and the last check.
    const row = folderRow('mirror');
    await row.getByTestId('following-tag').waitFor();
    const sourceHost = new URL(source.url).host;
    expect(await row.getByTestId('folder-origin').textContent()).toBe(`from ${sourceHost}`);
    await row.getByTestId('folder-state').filter({ hasText: 'Up to date' }).waitFor();
    await row.getByText(/^Sequence \d+$/).waitFor();
    await row.getByText(/^3 files · /).waitFor();
    await row.getByText(/^Checked (just now|\d+ s ago)$/).waitFor();
    expect(await readFile(join(mirror, 'docs/guide.md'), 'utf8')).toBe('guide');
    expect(await readFile(join(mirror, 'index.html'), 'utf8')).toBe('<h1>one</h1>');
    await axeCheck(page, 'Sync, with a followed folder');

    // The folder's page: where from, the version held, the last check; no publishing or ignore editing.
    await row.getByRole('link', { name: 'mirror', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'mirror' }).waitFor();
    const followed = (await rows(follower)).find((entry) => entry.path === mirror);
    if (!followed) throw new Error('the followed folder is not listed');
    expect(followed.mode).toBe('follow');
    expect(await page.getByTestId('follow-source').textContent()).toContain(`${source.url}/ipns/${synced.ipns_name}`);
    expect(await page.getByTestId('follow-version').textContent()).toContain(`Sequence ${followed.seq}`);
    await page
      .getByTestId('follow-checked')
      .getByText(/^(just now|\d+ s ago)$/)
      .waitFor();
    await page.getByRole('region', { name: 'Local changes' }).getByTestId('no-local-changes').waitFor();
    expect(await page.getByRole('region', { name: 'Ignore patterns' }).count()).toBe(0);
    expect(await page.getByText('On the IPFS network').count()).toBe(0);

    // A local edit here, then A edits the same file: the local one is kept, A's written beside it, listed.
    await writeFile(join(mirror, 'notes.txt'), 'my own notes');
    const before = synced.root;
    await writeFile(join(site, 'notes.txt'), 'notes from A');
    await writeFile(join(site, 'docs/new.md'), 'new on A');
    await sourceRootAfter(synced.id, before);
    const changes = page.getByRole('list', { name: 'Files changed here' });
    const change = changes.getByTestId('local-change').filter({ hasText: 'notes.txt' });
    await change.getByText('Modified here').waitFor({ timeout: 60_000 });
    expect(await readFile(join(mirror, 'notes.txt'), 'utf8')).toBe('my own notes');
    expect(await readFile(join(mirror, 'docs/new.md'), 'utf8')).toBe('new on A');
    const beside = (await readdir(mirror)).filter((name) => name.startsWith('notes (from '));
    expect(beside).toHaveLength(1);
    expect(await readFile(join(mirror, beside[0] ?? ''), 'utf8')).toBe('notes from A');
    expect(await change.textContent()).toContain(beside[0]);
    await page.getByTestId('folder-state').getByText('1 local change: the incoming files are written beside them.').waitFor();
    await axeCheck(page, 'Followed folder with local changes');
    await page.evaluate('window.scrollTo(0, 0)');
    await screenshots(page, 'sync-followed-local-changes');

    // Discard: the confirmation says the local files go to the trash; afterwards the folder is A's again.
    await page.getByRole('button', { name: 'Discard local changes' }).click();
    const confirm = page.getByRole('dialog', { name: 'Discard local changes?' });
    await confirm.getByText('The local files are moved to the trash').waitFor();
    await confirm.getByRole('button', { name: 'Discard local changes' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await page.getByRole('region', { name: 'Local changes' }).getByTestId('no-local-changes').waitFor();
    expect(await readFile(join(mirror, 'notes.txt'), 'utf8')).toBe('notes from A');
    expect((await readdir(mirror)).filter((name) => name.startsWith('notes (from '))).toEqual([]);
  });

  it("puts the service's refusals beside the fields they name, and takes a dropped folder as the target", async () => {
    const target = await folderWith('dropped-target');
    await openDesktop({ filePaths: { 'dropped-target': target } });
    await page.getByRole('button', { name: 'Follow a folder' }).click();
    const dialog = followDialog();

    // Nothing typed: said before asking the service.
    await dialog.getByRole('button', { name: 'Follow', exact: true }).click();
    await dialog.getByText('Type the IPNS name to follow').waitFor();
    await dialog.getByText("Type the folder's full path, or choose it.").waitFor();

    // A DNSLink domain: the service's 400, beside the name.
    const name = dialog.getByLabel('IPNS name to follow');
    await name.fill('example.com');
    await drop(['dropped-target']);
    expect(await dialog.getByLabel('Folder on this computer').inputValue()).toBe(target);
    await dialog.getByRole('button', { name: 'Follow', exact: true }).click();
    await dialog.getByText('"example.com" is not an IPNS name').waitFor();
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    await axeCheck(page, 'Follow a folder, refused');

    // A relative path: beside the folder; the name's error went with its edit.
    await name.fill('k51qzi5uqu5dlvj2baxnqndepeb86cbk3ng7n3i46uzyxzyqj2xjonzllnv0v8');
    await dialog.getByLabel('Folder on this computer').fill('relative/folder');
    await dialog.getByRole('button', { name: 'Follow', exact: true }).click();
    await dialog.getByText('Path must be absolute.').waitFor();
    expect(await name.getAttribute('aria-invalid')).toBeNull();
    expect(await rows(follower)).toEqual([]);

    // Cancel closes and forgets; no folder was dropped into syncing meanwhile.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await rows(follower)).toEqual([]);
  });

  it('shows a sync folder whose name another machine published, and publishes over it with Publish mine anyway', async () => {
    // The same key on both machines, public on both: B's routing endpoint is A, so B reads A's record before publishing.
    const key = await generateNameKey();
    const name = nameOfKey(key);
    const secret = Buffer.from(privateKeyToProtobuf(key)).toString('base64');
    for (const service of [source, follower]) {
      const imported = await service.call('POST', '/api/v0/name/import', {
        body: { name, value: 'bafybeiczsscdsbs7ffqz55asqdf3smv6klcw3gofszvwlyarci47bgf354', secret_key: secret, format: 'libp2p-protobuf-cleartext' },
      });
      expect(imported.status, imported.text).toBe(200);
      const marked = await service.call('POST', '/api/v0/name/public', { query: { arg: name, on: true } });
      expect(marked.status, marked.text).toBe(200);
    }
    const onA = await source.call<{ data: { id: string } }>('POST', '/api/v0/sync/add', {
      body: { path: await folderWith('shared-a', { 'a.txt': 'A' }), ipns_name: name },
    });
    expect(onA.status, onA.text).toBe(200);
    await until('A to publish', async () => {
      const row = (await rows(source)).find((entry) => entry.id === onA.json.data.id);
      return row && row.state === 'idle' && row.root !== '' ? row : undefined;
    });
    const onB = await follower.call<{ data: { id: string } }>('POST', '/api/v0/sync/add', {
      body: { path: await folderWith('shared', { 'b.txt': 'B' }), ipns_name: name },
    });
    expect(onB.status, onB.text).toBe(200);
    const conflicted = await until('the conflict on B', async () => (await rows(follower)).find((entry) => entry.id === onB.json.data.id && entry.conflict));
    const seen = conflicted.conflict?.seq ?? 0;

    await openDesktop();
    const row = folderRow('shared');
    await row.getByTestId('folder-state').getByText('Not published').waitFor();
    await row.getByTestId('folder-conflict-note').waitFor();
    await row.getByRole('link', { name: 'shared', exact: true }).click();
    const region = page.getByRole('region', { name: 'Another machine published this name' });
    await region.getByText('Syncing goes on here').waitFor();
    expect(await region.getByTestId('folder-conflict').textContent()).toContain(`Sequence ${seen}`);
    await axeCheck(page, 'Sync folder with a conflict');
    await page.evaluate('window.scrollTo(0, 0)');
    await screenshots(page, 'sync-folder-conflict');

    await region.getByRole('button', { name: 'Publish mine anyway' }).click();
    await page.getByText('Published shared: its IPNS name points at this computer').waitFor();
    await region.waitFor({ state: 'detached' });
    const after = (await rows(follower)).find((entry) => entry.id === onB.json.data.id);
    expect(after?.conflict).toBeNull();
  });
});
