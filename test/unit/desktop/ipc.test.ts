import { describe, expect, it } from 'vitest';
import { isAllowedExternalUrl, isRendererUrl } from '../../../main/desktop/external-urls.js';
import {
  BridgeArgumentError,
  isTrustedSender,
  registerIpcHandlers,
  UntrustedSenderError,
  type IpcMainLike,
  type IpcSender,
} from '../../../main/desktop/ipc.js';
import type { KeySecretStore } from '../../../main/desktop/key-secrets.js';
import { IpcChannels } from '../../../shared/preload-bridge.js';

const SERVICE = 'http://127.0.0.1:5080';
const OWNER = { access_key: '3f0c1c9e-6a7e-4c43-9d3e-2b5c0f6e9a11', access_secret: 'x'.repeat(64) };

type Listener = (event: IpcSender, ...args: unknown[]) => unknown;

/** A hand-written ipcMain stand-in that lets the test invoke channels as a renderer would. */
function fakeIpcMain() {
  const handlers = new Map<string, Listener>();
  const ipcMain: IpcMainLike = {
    handle: (channel, listener) => {
      if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
      handlers.set(channel, listener);
    },
    removeHandler: (channel) => void handlers.delete(channel),
  };
  const invoke = async (channel: string, from: IpcSender, ...args: unknown[]) => {
    const handler = handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    return handler(from, ...args);
  };
  return { ipcMain, handlers, invoke };
}

/** The webContents of the window of the current verified run (window-guard.ts says which). */
const WINDOW = 7;
const fromRenderer: IpcSender = { sender: { id: WINDOW }, senderFrame: { url: `${SERVICE}/`, parent: null } };

const KEY = '3f0c1c9e-6a7e-4c43-9d3e-2b5c0f6e9a11';
const SECRET = 'AbC-_09'.padEnd(64, 'x');

function setup() {
  const fake = fakeIpcMain();
  let trustedWindow: number | null = WINDOW;
  const opened: string[] = [];
  /** Every call that reached a dependency: a refused call must add nothing here. */
  const effects: unknown[][] = [];
  let picks = 0;
  let launchAtLogin = false;
  const kept = new Map<string, string>();
  const keySecrets: KeySecretStore = {
    keep: async (accessKey, secret) => (effects.push(['keep', accessKey]), kept.set(accessKey, secret), true),
    read: async (accessKey) => (effects.push(['read', accessKey]), kept.get(accessKey) ?? null),
    forget: async (accessKey) => void (effects.push(['forget', accessKey]), kept.delete(accessKey)),
  };
  const unregister = registerIpcHandlers(fake.ipcMain, {
    serviceOrigin: SERVICE,
    isTrustedWindow: (id) => id === trustedWindow,
    ownerKey: () => OWNER,
    pickFolder: async () => {
      picks += 1;
      return '/home/me/Photos';
    },
    openExternal: async (url) => void opened.push(url),
    keySecrets,
    launchAtLogin: {
      isEnabled: async () => launchAtLogin,
      setEnabled: async (on) => void (effects.push(['launch', on]), (launchAtLogin = on)),
    },
    openFolder: async (path) => (effects.push(['open-folder', path]), path === '/home/me/Photos'),
    appVersion: '1.2.3',
  });
  return { ...fake, opened, effects, picks: () => picks, unregister, trust: (id: number | null) => (trustedWindow = id) };
}

describe('registerIpcHandlers', () => {
  it('registers exactly the channels of the shared contract', () => {
    const { handlers } = setup();
    expect([...handlers.keys()].sort()).toEqual(Object.values(IpcChannels).sort());
  });

  it('hands the owner key and a picked folder to the renderer', async () => {
    const { invoke, picks } = setup();
    await expect(invoke(IpcChannels.getOwnerKey, fromRenderer)).resolves.toEqual(OWNER);
    await expect(invoke(IpcChannels.pickFolder, fromRenderer)).resolves.toBe('/home/me/Photos');
    expect(picks()).toBe(1);
  });

  it('keeps, reads and forgets a key secret', async () => {
    const { invoke, effects } = setup();
    await expect(invoke(IpcChannels.readSecret, fromRenderer, KEY)).resolves.toBeNull();
    await expect(invoke(IpcChannels.keepSecret, fromRenderer, KEY, SECRET)).resolves.toBe(true);
    await expect(invoke(IpcChannels.readSecret, fromRenderer, KEY.toUpperCase())).resolves.toBe(SECRET);
    await expect(invoke(IpcChannels.forgetSecret, fromRenderer, KEY)).resolves.toBeUndefined();
    await expect(invoke(IpcChannels.readSecret, fromRenderer, KEY)).resolves.toBeNull();
    expect(effects.map(([what]) => what)).toEqual(['read', 'keep', 'read', 'forget', 'read']);
  });

  it('gets and sets launch at login, opens a folder, tells the version', async () => {
    const { invoke, effects } = setup();
    await expect(invoke(IpcChannels.getLaunchAtLogin, fromRenderer)).resolves.toBe(false);
    await expect(invoke(IpcChannels.setLaunchAtLogin, fromRenderer, true)).resolves.toBeUndefined();
    await expect(invoke(IpcChannels.getLaunchAtLogin, fromRenderer)).resolves.toBe(true);
    await expect(invoke(IpcChannels.openFolder, fromRenderer, '/home/me/Photos')).resolves.toBe(true);
    await expect(invoke(IpcChannels.openFolder, fromRenderer, '/home/me/Gone')).resolves.toBe(false);
    await expect(invoke(IpcChannels.appVersion, fromRenderer)).resolves.toBe('1.2.3');
    expect(effects).toEqual([
      ['launch', true],
      ['open-folder', '/home/me/Photos'],
      ['open-folder', '/home/me/Gone'],
    ]);
  });

  // Every channel with arguments a renderer could send wrongly: each is refused before anything happens.
  const BAD_ARGUMENTS: Array<[string, unknown[], RegExp]> = [
    [IpcChannels.getOwnerKey, ['extra'], /takes no arguments/],
    [IpcChannels.pickFolder, [{ defaultPath: '/' }], /takes no arguments/],
    [IpcChannels.keepSecret, [KEY], /takes 2 arguments, got 1/],
    [IpcChannels.keepSecret, ['not-a-uuid', SECRET], /accessKey must be an access key/],
    [IpcChannels.keepSecret, [`${KEY}\n`, SECRET], /accessKey must be an access key/],
    [IpcChannels.keepSecret, [KEY, 'short'], /secret must be an access secret/],
    [IpcChannels.keepSecret, [KEY, `${SECRET.slice(1)}=`], /secret must be an access secret/],
    [IpcChannels.keepSecret, [KEY, { toString: () => SECRET }], /secret must be an access secret/],
    [IpcChannels.keepSecret, [KEY, SECRET, 'extra'], /takes 2 arguments, got 3/],
    [IpcChannels.readSecret, [], /takes 1 argument, got 0/],
    [IpcChannels.readSecret, ['../owner-key'], /accessKey must be an access key/],
    [IpcChannels.readSecret, [42], /accessKey must be an access key/],
    [IpcChannels.forgetSecret, [null], /accessKey must be an access key/],
    [IpcChannels.forgetSecret, ['*'], /accessKey must be an access key/],
    [IpcChannels.getLaunchAtLogin, [true], /takes no arguments/],
    [IpcChannels.setLaunchAtLogin, ['true'], /on must be true or false/],
    [IpcChannels.setLaunchAtLogin, [1], /on must be true or false/],
    [IpcChannels.setLaunchAtLogin, [], /takes 1 argument, got 0/],
    [IpcChannels.openFolder, [''], /path must be a folder path/],
    [IpcChannels.openFolder, [['/home/me/Photos']], /path must be a folder path/],
    [IpcChannels.openFolder, [], /takes 1 argument, got 0/],
    [IpcChannels.appVersion, ['x'], /takes no arguments/],
  ];

  it.each(BAD_ARGUMENTS)('%s refuses %j', async (channel, args, reason) => {
    const { invoke, effects, picks } = setup();
    const call = invoke(channel, fromRenderer, ...args);
    await expect(call).rejects.toBeInstanceOf(BridgeArgumentError);
    await expect(invoke(channel, fromRenderer, ...args)).rejects.toThrow(reason);
    expect(effects).toEqual([]);
    expect(picks()).toBe(0);
  });

  it('has a bad-argument case for every channel that takes arguments or none', () => {
    const covered = new Set(BAD_ARGUMENTS.map(([channel]) => channel));
    // openExternal answers false instead (tested below): a refused link is an answer, not an error.
    expect([...covered].sort()).toEqual(
      Object.values(IpcChannels)
        .filter((channel) => channel !== IpcChannels.openExternal)
        .sort(),
    );
  });

  it('trusts the renderer on every one of its pages, as the router moves between them', async () => {
    const { invoke } = setup();
    for (const page of ['/overview', '/settings', '/sync/4f1c', '/keys/', '/signin?code=x']) {
      await expect(invoke(IpcChannels.appVersion, { sender: { id: WINDOW }, senderFrame: { url: `${SERVICE}${page}`, parent: null } })).resolves.toBe('1.2.3');
    }
  });

  it('refuses every channel to a page that is not the renderer', async () => {
    const { invoke, picks, opened } = setup();
    const strangers: IpcSender[] = [
      { sender: { id: WINDOW }, senderFrame: null },
      { sender: { id: WINDOW }, senderFrame: { url: `${SERVICE}/ipfs/bafkqaaa`, parent: null } },
      { sender: { id: WINDOW }, senderFrame: { url: `${SERVICE}/ipns/docs.ipfs.tech/settings`, parent: null } },
      { sender: { id: WINDOW }, senderFrame: { url: `${SERVICE}/api/v0/stats`, parent: null } },
      { sender: { id: WINDOW }, senderFrame: { url: `${SERVICE}/sync/a/b`, parent: null } },
      { sender: { id: WINDOW }, senderFrame: { url: 'http://127.0.0.1:5081/', parent: null } },
      { sender: { id: WINDOW }, senderFrame: { url: 'https://evil.example/', parent: null } },
      { sender: { id: WINDOW }, senderFrame: { url: `${SERVICE}/`, parent: {} } },
    ];
    for (const stranger of strangers) {
      for (const channel of Object.values(IpcChannels)) {
        await expect(invoke(channel, stranger, 'https://github.com/')).rejects.toBeInstanceOf(UntrustedSenderError);
      }
    }
    expect(picks()).toBe(0);
    expect(opened).toEqual([]);
  });

  it('refuses every channel to the renderer in any webContents but the window of the current verified run', async () => {
    const { invoke, picks, opened, effects, trust } = setup();
    // The same origin and page from another webContents: a page a squatter on the port got loaded elsewhere.
    const elsewhere: IpcSender = { sender: { id: WINDOW + 1 }, senderFrame: { url: `${SERVICE}/`, parent: null } };
    for (const channel of Object.values(IpcChannels)) {
      await expect(invoke(channel, elsewhere, 'https://github.com/')).rejects.toBeInstanceOf(UntrustedSenderError);
    }
    // The window itself once its run is over (the service crashed; none verified, or a newer one).
    trust(null);
    for (const channel of Object.values(IpcChannels)) {
      await expect(invoke(channel, fromRenderer, 'https://github.com/')).rejects.toBeInstanceOf(UntrustedSenderError);
    }
    expect(picks()).toBe(0);
    expect(opened).toEqual([]);
    expect(effects).toEqual([]);
    trust(WINDOW);
    await expect(invoke(IpcChannels.getOwnerKey, fromRenderer)).resolves.toEqual(OWNER);
  });

  it('opens only allowed http(s) URLs and says whether it did', async () => {
    const { invoke, opened } = setup();
    await expect(invoke(IpcChannels.openExternal, fromRenderer, 'https://github.com/pinfold')).resolves.toBe(true);
    await expect(invoke(IpcChannels.openExternal, fromRenderer, `${SERVICE}/ipfs/bafkqaaa`)).resolves.toBe(true);
    for (const refused of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'http://github.com/',
      'https://github.com.evil.example/',
      'https://user:pass@github.com/',
      'smb://server/share',
      'not a url',
      42,
      undefined,
    ]) {
      await expect(invoke(IpcChannels.openExternal, fromRenderer, refused)).resolves.toBe(false);
    }
    expect(opened).toEqual(['https://github.com/pinfold', `${SERVICE}/ipfs/bafkqaaa`]);
  });

  it('removes its handlers when asked', async () => {
    const { handlers, unregister, invoke } = setup();
    unregister();
    expect(handlers.size).toBe(0);
    await expect(invoke(IpcChannels.getOwnerKey, fromRenderer)).rejects.toThrow(/No handler/);
  });
});

describe('URL rules', () => {
  it("accepts the renderer only at the service root and the renderer's pages", () => {
    expect(isRendererUrl(`${SERVICE}/`, SERVICE)).toBe(true);
    expect(isRendererUrl(`${SERVICE}/index.html?x=1`, SERVICE)).toBe(true);
    expect(isRendererUrl(`${SERVICE}/pins?cid=bafkqaaa`, SERVICE)).toBe(true);
    expect(isRendererUrl(`${SERVICE}/sync/abc#top`, SERVICE)).toBe(true);
    expect(isRendererUrl(`${SERVICE}/pinsx`, SERVICE)).toBe(false);
    expect(isRendererUrl(`${SERVICE}/ipfs/bafkqaaa/settings`, SERVICE)).toBe(false);
    expect(isRendererUrl(`${SERVICE}/assets/index.js`, SERVICE)).toBe(false);
    expect(isRendererUrl(`${SERVICE}/api/v0/stats`, SERVICE)).toBe(false);
    expect(isRendererUrl('http://localhost:5080/', SERVICE)).toBe(false);
    expect(isRendererUrl(undefined, SERVICE)).toBe(false);
    expect(isRendererUrl('::', SERVICE)).toBe(false);
  });

  it('takes a custom allow-list', () => {
    expect(isAllowedExternalUrl('https://example.org/a', SERVICE, ['example.org'])).toBe(true);
    expect(isAllowedExternalUrl('https://github.com/', SERVICE, ['example.org'])).toBe(false);
  });

  it('trusts only a top frame on the renderer, in the trusted window', () => {
    const trusted = (id: number) => id === WINDOW;
    expect(isTrustedSender(fromRenderer, SERVICE, trusted)).toBe(true);
    expect(isTrustedSender({ sender: { id: WINDOW }, senderFrame: { url: `${SERVICE}/`, parent: {} } }, SERVICE, trusted)).toBe(false);
    expect(isTrustedSender({ ...fromRenderer, sender: { id: WINDOW + 1 } }, SERVICE, trusted)).toBe(false);
  });
});
