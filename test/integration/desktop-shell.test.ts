import { existsSync, readFileSync, statSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SessionKey } from '../../shared/api-types.js';
import { startShell, type Shell } from '../../main/desktop/desktop-shell.js';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/test-server.js';
import { drawnWith, itemAction, memoryLaunchAtLogin, recordingHost } from './desktop-shell-helpers.js';
import { put, syncList } from './sync-helpers.js';
import { until } from '../helpers/until.js';
import { tempDirs } from '../helpers/temp-dirs.js';

/**
 * The desktop shell (tray, notifications, links) over a real service: createApp on port 0 with a temp
 * data folder, real sync folders on disk, the live event stream. Only Electron is a stand-in: a host
 * that records what the shell drew and asked for.
 */
describe('the desktop shell over a real service', () => {
  let server: TestServer;
  let dataDir: string;
  let shell: Shell | null = null;
  const temps = tempDirs('pinfold-shell-');
  let picked: string | null = null;

  beforeAll(async () => {
    dataDir = await makeTempDir('pinfold-shell-data-');
    server = await startTestServer({ dataDir });
  });
  afterEach(() => {
    shell?.stop();
    shell = null;
  });
  afterAll(async () => {
    await server?.stop();
    await temps.removeAll();
    await rm(dataDir, { recursive: true, force: true });
  });

  function start(publicGateway = false) {
    const recorder = recordingHost(() => picked);
    const launch = memoryLaunchAtLogin();
    shell = startShell({
      host: recorder.host,
      // A service that runs throughout; desktop-shell-service.test.ts has the supervised process that crashes.
      status: { current: () => ({ state: 'running', url: server.url }), onChange: () => () => {} },
      connection: () => ({ url: server.url, ownerKey: server.owner }),
      // Never offered here: the tray offers it only when the supervisor gave up (desktop-shell-service.test.ts).
      restartService: () => {
        throw new Error('the service runs throughout this test');
      },
      publicGateway: () => publicGateway,
      dataDir,
      launchAtLogin: launch,
      onError: () => {},
      redrawMs: 5,
    });
    const running = shell;
    return { ...recorder, launch, shell: running, run: (label: string) => running.tray.run(itemAction(recorder.last()?.menu ?? [], label)) };
  }

  it('adds a folder from the tray, shows it syncing then synced, and tells the first sync once', async () => {
    const shellView = start();
    await drawnWith(shellView.last, 'the empty list', (d) => d.tooltip === 'No folders synced yet' && d.icon === 'idle');
    const folder = await temps.make();
    for (let i = 0; i < 5; i += 1) await put(folder, `file-${i}.txt`, `content ${i}`);
    picked = folder;
    await shellView.run('Add folder to sync…');
    const synced = await drawnWith(shellView.last, 'the folder synced', (d) => d.tooltip === 'Up to date: 1 folder synced' && d.icon === 'idle');
    const name = path.basename(folder);
    expect(synced.menu.some((item) => item.type === 'submenu' && item.label === name)).toBe(true);
    await until('the first-sync notification', () => (shellView.notes.length > 0 ? true : undefined));
    expect(shellView.notes.map((note) => note.title)).toEqual([`${name} is synced`]);
    expect(shellView.notes[0]?.body).toBe('5 files pinned and published under its IPNS name. Changes follow by themselves.');
    // The click leads to the folder's page in the window.
    shellView.notes[0]?.onClick();
    const [row] = await syncList(server, server.owner);
    expect(shellView.windows).toEqual([`/sync/${row?.id}`]);
    // The syncing state was drawn on the way (scanning or syncing), never an error.
    expect(shellView.drawn.some((d) => d.icon === 'syncing')).toBe(true);
    expect(shellView.drawn.some((d) => d.icon === 'error')).toBe(false);

    // The folder's links and its folder.
    await shellView.run('Copy gateway link of the latest version');
    await shellView.run('Copy IPNS link');
    expect(shellView.clipboard).toEqual([`${server.url}/ipfs/${row?.root}`, `${server.url}/ipns/${row?.ipns_name}`]);
    await shellView.run('Open folder');
    expect(shellView.opened).toEqual([folder]);
    expect(shellView.shell.openableRoots()).toEqual([dataDir, folder]);
  });

  it("a refused link's notification says why in Pinfold's words, never with the link's text", async () => {
    const shellView = start();
    // Any program or web page can hand Pinfold a link: its text is the author's to choose.
    const crafted = [
      'ipfs://Your-Pinfold-licence-expired.Call-555-0100-now',
      'ipns://Your_Pinfold_licence_expired_call_555-0100',
      'ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi/Call-555-0100/../x',
    ];
    for (const link of crafted) shellView.shell.links.handle(link);
    expect(shellView.notes.map((note) => note.title)).toEqual(crafted.map(() => 'Pinfold cannot open this link'));
    expect(shellView.notes.map((note) => note.body)).toEqual([
      "The link's CID is not valid.",
      "The link's IPNS name is neither a key nor a domain.",
      'The link climbs out of its root (. or .. in the path).',
    ]);
    for (const note of shellView.notes) expect(note.body).not.toMatch(/555|licence|Call/i);
    expect(shellView.external).toEqual([]);
  });

  it('says nothing at start about folders that are already there', async () => {
    const shellView = start();
    await drawnWith(shellView.last, 'the list', (d) => d.tooltip.startsWith('Up to date'));
    expect(shellView.notes).toEqual([]);
  });

  it('pauses all syncing and resumes it', async () => {
    const shellView = start();
    await drawnWith(shellView.last, 'the list', (d) => d.tooltip.startsWith('Up to date'));
    await shellView.run('Pause all syncing');
    const paused = await drawnWith(shellView.last, 'paused', (d) => d.icon === 'paused');
    expect(paused.tooltip).toBe('Syncing paused (1 folder)');
    expect((await syncList(server, server.owner)).map((row) => row.state)).toEqual(['paused']);
    await shellView.run('Resume syncing');
    await drawnWith(shellView.last, 'resumed', (d) => d.icon === 'idle' && d.tooltip === 'Up to date: 1 folder synced');
    expect(shellView.notes).toEqual([]);
  });

  it('a folder that vanishes: the error icon, its reason, and one notification', async () => {
    const shellView = start();
    await drawnWith(shellView.last, 'the list', (d) => d.tooltip.startsWith('Up to date'));
    const folder = await temps.make();
    await put(folder, 'photo.jpg', 'pixels');
    await shellView.shell.tray.addFolders([folder]);
    await drawnWith(shellView.last, 'two folders synced', (d) => d.tooltip === 'Up to date: 2 folders synced');
    await rm(folder, { recursive: true });
    const broken = await drawnWith(shellView.last, 'the error', (d) => d.icon === 'error');
    expect(broken.tooltip).toMatch(new RegExp(`^${path.basename(folder)} needs attention: .*folder not found`));
    await until('the error notification', () => (shellView.notes.some((note) => note.title === `${path.basename(folder)} stopped syncing`) ? true : undefined));
    expect(shellView.notes.filter((note) => note.title.endsWith('stopped syncing'))).toHaveLength(1);
    // Resume leaves a folder an error paused alone (Retry in the window is the way back): nothing to resume.
    expect(() => itemAction(broken.menu, 'Resume syncing')).toThrow(/no enabled menu item/);
    const gone = (await syncList(server, server.owner)).find((row) => row.path === folder);
    await call('/api/v0/sync/rm', { id: gone?.id ?? '' });
  });

  it('refuses to add a file or a missing folder, says why in a notification, adds nothing', async () => {
    const shellView = start();
    await drawnWith(shellView.last, 'the list', (d) => d.tooltip.startsWith('Up to date'));
    const before = await syncList(server, server.owner);
    const dir = await temps.make();
    const file = path.join(dir, 'not-a-folder.txt');
    await writeFile(file, 'x');
    await shellView.shell.tray.addFolders([file, path.join(dir, 'missing')]);
    expect(shellView.notes.map((note) => note.title)).toEqual([`Could not sync ${file}`, `Could not sync ${path.join(dir, 'missing')}`]);
    expect(shellView.notes.every((note) => note.body !== '')).toBe(true);
    expect(await syncList(server, server.owner)).toEqual(before);
    // Cancelling the picker adds nothing and says nothing.
    picked = null;
    await shellView.run('Add folder to sync…');
    expect(shellView.notes).toHaveLength(2);
  });

  /** The sign-in link a handoff page leads the browser to, read as the browser would. */
  const pageLink = (page: string) => new URL(JSON.parse(/location\.replace\(("[^"]*")\)/.exec(readFileSync(page, 'utf8'))?.[1] ?? '""') as string);
  const redeemLink = async (link: URL) => {
    const response = await fetch(`${server.url}/api/v0/session?${new URLSearchParams({ code: link.searchParams.get('code') ?? '' }).toString()}`, {
      method: 'POST',
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { data: SessionKey }).data;
  };

  it('opens the window in the browser through a one-time sign-in page (its path to the OS, no code), runs GC, toggles launch at login', async () => {
    const shellView = start();
    await drawnWith(shellView.last, 'launch at login known', (d) => d.menu.some((item) => item.type === 'checkbox' && item.enabled));
    await shellView.run('Open in browser');
    // What goes to the OS (Electron's shell.openPath, which runs xdg-open): a private page's path, never a URL with a code.
    expect(shellView.external).toEqual([]);
    expect(shellView.opened).toHaveLength(1);
    const page = shellView.opened[0] as string;
    expect(page).toMatch(/[\\/]pinfold-sign-in-[^\\/]+[\\/]sign-in-[0-9a-f]{24}\.html$/);
    expect(page).not.toMatch(/code/);
    if (process.platform !== 'win32') expect(statSync(page).mode & 0o777).toBe(0o600);
    const link = pageLink(page);
    expect(`${link.origin}${link.pathname}`).toBe(`${server.url}/signin`);
    expect(link.searchParams.get('next')).toBeNull();
    await redeemLink(link);
    expect(existsSync(page)).toBe(false);
    await shellView.run('Run garbage collection');
    expect(shellView.notes).toEqual([]);
    await shellView.run('Launch at login');
    expect(shellView.launch.value).toBe(true);
    await drawnWith(shellView.last, 'the checkbox on', (d) => d.menu.some((item) => item.type === 'checkbox' && item.checked));
    await shellView.run('Quit Pinfold');
    expect(shellView.quits()).toBe(1);
  });

  it('routes ipfs:// links: the view page through a sign-in page without the public gateway (one session for a burst of links), the gateway page with it; a bad link is refused', async () => {
    const [row] = await syncList(server, server.owner);
    const closed = start(false);
    closed.shell.links.handle(`ipfs://${row?.root}/file-1.txt`);
    closed.shell.links.handle(`ipfs://${row?.root}/file-2.txt`);
    await until('the browser', () => (closed.opened.length === 2 ? true : undefined));
    expect(closed.external).toEqual([]);
    const links = closed.opened.map((page) => {
      expect(page).not.toMatch(/code/);
      return pageLink(page);
    });
    expect(links.map((link) => `${link.origin}${link.pathname}`)).toEqual([`${server.url}/signin`, `${server.url}/signin`]);
    expect(links.map((link) => link.searchParams.get('next')).sort()).toEqual(
      ['file-1.txt', 'file-2.txt'].map((file) => `/view?path=${encodeURIComponent(`/ipfs/${row?.root}/${file}`)}`),
    );
    // Each page's code is a real one, and the two tabs of the burst share one browser session.
    const [first, second] = [await redeemLink(links[0] as URL), await redeemLink(links[1] as URL)];
    expect(second.access_key).toBe(first.access_key);
    expect(closed.opened.some((page) => existsSync(page))).toBe(false);
    expect(closed.windows).toEqual([]);
    closed.shell.links.handle('ipfs://bafy-not-a-cid/../../etc/passwd');
    expect(closed.notes.map((note) => note.title)).toEqual(['Pinfold cannot open this link']);
    expect(closed.opened).toHaveLength(2);
    shell?.stop();

    const open = start(true);
    open.shell.links.handle(`ipfs://${row?.root}/file-1.txt`);
    await until('the browser', () => (open.external.length > 0 ? true : undefined));
    expect(open.external).toEqual([`${server.url}/ipfs/${row?.root}/file-1.txt`]);
    expect(open.opened).toEqual([]);
  });

  async function call(apiPath: string, query: Record<string, string>): Promise<void> {
    const params = new URLSearchParams({ ...query, ts: String(Math.floor(Date.now() / 1000)) });
    const response = await fetch(`${server.url}${apiPath}?${params.toString()}`, {
      method: 'POST',
      headers: { 'X-Access-Key': server.owner.access_key, 'X-Access-Secret': server.owner.access_secret },
    });
    expect(response.status).toBe(200);
  }
});
