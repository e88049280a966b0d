import { describe, expect, it } from 'vitest';
import { isAllowedExternalUrl, isRendererUrl } from '../../../main/desktop/external-urls.js';
import { isTrustedSender, registerIpcHandlers, UntrustedSenderError, type IpcMainLike, type IpcSender } from '../../../main/desktop/ipc.js';
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

const fromRenderer: IpcSender = { senderFrame: { url: `${SERVICE}/`, parent: null } };

function setup() {
  const fake = fakeIpcMain();
  const opened: string[] = [];
  let picks = 0;
  const unregister = registerIpcHandlers(fake.ipcMain, {
    serviceOrigin: SERVICE,
    ownerKey: () => OWNER,
    pickFolder: async () => {
      picks += 1;
      return '/home/me/Photos';
    },
    openExternal: async (url) => void opened.push(url),
  });
  return { ...fake, opened, picks: () => picks, unregister };
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

  it('refuses every channel to a page that is not the renderer', async () => {
    const { invoke, picks, opened } = setup();
    const strangers: IpcSender[] = [
      { senderFrame: null },
      { senderFrame: { url: `${SERVICE}/ipfs/bafkqaaa`, parent: null } },
      { senderFrame: { url: 'http://127.0.0.1:5081/', parent: null } },
      { senderFrame: { url: 'https://evil.example/', parent: null } },
      { senderFrame: { url: `${SERVICE}/`, parent: {} } },
    ];
    for (const stranger of strangers) {
      for (const channel of Object.values(IpcChannels)) {
        await expect(invoke(channel, stranger, 'https://github.com/')).rejects.toBeInstanceOf(UntrustedSenderError);
      }
    }
    expect(picks()).toBe(0);
    expect(opened).toEqual([]);
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
  it('accepts the renderer only at the service root', () => {
    expect(isRendererUrl(`${SERVICE}/`, SERVICE)).toBe(true);
    expect(isRendererUrl(`${SERVICE}/index.html?x=1`, SERVICE)).toBe(true);
    expect(isRendererUrl(`${SERVICE}/api/v0/stats`, SERVICE)).toBe(false);
    expect(isRendererUrl('http://localhost:5080/', SERVICE)).toBe(false);
    expect(isRendererUrl(undefined, SERVICE)).toBe(false);
    expect(isRendererUrl('::', SERVICE)).toBe(false);
  });

  it('takes a custom allow-list', () => {
    expect(isAllowedExternalUrl('https://example.org/a', SERVICE, ['example.org'])).toBe(true);
    expect(isAllowedExternalUrl('https://github.com/', SERVICE, ['example.org'])).toBe(false);
  });

  it('trusts only a top frame on the renderer', () => {
    expect(isTrustedSender(fromRenderer, SERVICE)).toBe(true);
    expect(isTrustedSender({ senderFrame: { url: `${SERVICE}/`, parent: {} } }, SERVICE)).toBe(false);
  });
});
