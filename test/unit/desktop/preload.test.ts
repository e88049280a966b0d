import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import { build, type Rolldown } from 'vite';
import { describe, expect, it } from 'vitest';
import { BRIDGE_GLOBAL, IpcChannels, type PinfoldBridge } from '../../../shared/preload-bridge.js';

const configFile = fileURLToPath(new URL('../../../vite.preload.config.ts', import.meta.url));

/** Builds the preload in memory with the real config, as `npm run build:preload` does. */
async function buildPreload(): Promise<string> {
  const result = await build({ configFile, logLevel: 'silent', build: { write: false } });
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  const chunks = outputs.flatMap((output) => output.output).filter((item) => item.type === 'chunk');
  expect(chunks.map((chunk) => chunk.fileName)).toEqual(['preload.cjs']);
  return (chunks[0] as Rolldown.OutputChunk).code;
}

describe('the preload bundle', () => {
  it('runs as a sandboxed CommonJS script and exposes only the typed bridge', async () => {
    const code = await buildPreload();
    expect(code).not.toMatch(/^\s*(import|export)\s/m);

    const exposed = new Map<string, unknown>();
    const invoked: unknown[][] = [];
    const required: string[] = [];
    const droppedFile = { name: 'Photos' };
    const electron = {
      contextBridge: { exposeInMainWorld: (key: string, api: unknown) => void exposed.set(key, api) },
      ipcRenderer: {
        invoke: async (...args: unknown[]) => {
          invoked.push(args);
          return args[0] === IpcChannels.openExternal ? true : null;
        },
      },
      // '' for a File the page made itself; a path for one the user dropped; a throw for what is no File.
      webUtils: {
        getPathForFile: (file: unknown) => {
          if (file === droppedFile) return '/home/me/Photos';
          if (typeof file === 'object' && file !== null && 'name' in file) return '';
          throw new TypeError('Error processing argument at index 0, conversion failure');
        },
      },
    };
    // A sandboxed preload gets a `require` that knows only a few modules; anything else would fail there.
    const sandboxRequire = (name: string) => {
      required.push(name);
      if (name !== 'electron') throw new Error(`module not found: ${name}`);
      return electron;
    };
    const module = { exports: {} };
    runInNewContext(code, { require: sandboxRequire, module, exports: module.exports });

    expect(required).toEqual(['electron']);
    expect([...exposed.keys()]).toEqual([BRIDGE_GLOBAL]);
    const bridge = exposed.get(BRIDGE_GLOBAL) as PinfoldBridge;
    expect(Object.keys(bridge).sort()).toEqual([
      'appVersion',
      'forgetSecret',
      'getLaunchAtLogin',
      'getOwnerKey',
      'isDesktop',
      'keepSecret',
      'openExternal',
      'openFolder',
      'pathForFile',
      'pickFolder',
      'readSecret',
      'setLaunchAtLogin',
    ]);
    expect(bridge.isDesktop).toBe(true);

    // The dropped item's path comes from webUtils, in the preload, without a round trip.
    expect(bridge.pathForFile(droppedFile as unknown as File)).toBe('/home/me/Photos');
    expect(bridge.pathForFile({ name: 'made-by-the-page.txt' } as unknown as File)).toBeNull();
    expect(bridge.pathForFile('not a file' as unknown as File)).toBeNull();

    await expect(bridge.getOwnerKey()).resolves.toBeNull();
    await bridge.pickFolder();
    await expect(bridge.openExternal('https://github.com/')).resolves.toBe(true);
    await bridge.keepSecret('k', 's');
    await bridge.readSecret('k');
    await bridge.forgetSecret('k');
    await bridge.getLaunchAtLogin();
    await bridge.setLaunchAtLogin(true);
    await bridge.openFolder('/home/me/Photos');
    await bridge.appVersion();
    // Each method calls its one channel, with the arguments as given (main checks them).
    expect(invoked).toEqual([
      [IpcChannels.getOwnerKey],
      [IpcChannels.pickFolder],
      [IpcChannels.openExternal, 'https://github.com/'],
      [IpcChannels.keepSecret, 'k', 's'],
      [IpcChannels.readSecret, 'k'],
      [IpcChannels.forgetSecret, 'k'],
      [IpcChannels.getLaunchAtLogin],
      [IpcChannels.setLaunchAtLogin, true],
      [IpcChannels.openFolder, '/home/me/Photos'],
      [IpcChannels.appVersion],
    ]);
  });
});
