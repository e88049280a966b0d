/**
 * The sandboxed preload: exposes `window.pinfold` and nothing else. No generic ipcRenderer
 * passthrough: each bridge method calls one fixed channel. Built to CommonJS (vite.preload.config.ts)
 * because sandboxed preloads cannot be ES modules.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { BRIDGE_GLOBAL, IpcChannels, type IpcChannel, type IpcContract, type PinfoldBridge } from '../../../shared/preload-bridge.js';

function invoke<C extends IpcChannel>(channel: C, ...args: IpcContract[C]['args']): Promise<IpcContract[C]['result']> {
  return ipcRenderer.invoke(channel, ...args) as Promise<IpcContract[C]['result']>;
}

const bridge: PinfoldBridge = {
  isDesktop: true,
  getOwnerKey: () => invoke(IpcChannels.getOwnerKey),
  pickFolder: () => invoke(IpcChannels.pickFolder),
  openExternal: (url) => invoke(IpcChannels.openExternal, String(url)),
};

contextBridge.exposeInMainWorld(BRIDGE_GLOBAL, bridge);
