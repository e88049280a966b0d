/**
 * The sandboxed preload: exposes `window.pinfold` and nothing else. No generic ipcRenderer
 * passthrough: each bridge method calls one fixed channel. Built to CommonJS (vite.preload.config.ts)
 * because sandboxed preloads cannot be ES modules.
 */
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { BRIDGE_GLOBAL, IpcChannels, type IpcChannel, type IpcContract, type PinfoldBridge } from '../../../shared/preload-bridge.js';

function invoke<C extends IpcChannel>(channel: C, ...args: IpcContract[C]['args']): Promise<IpcContract[C]['result']> {
  return ipcRenderer.invoke(channel, ...args) as Promise<IpcContract[C]['result']>;
}

const bridge: PinfoldBridge = {
  isDesktop: true,
  getOwnerKey: () => invoke(IpcChannels.getOwnerKey),
  pickFolder: () => invoke(IpcChannels.pickFolder),
  openExternal: (url) => invoke(IpcChannels.openExternal, String(url)),
  // Runs here, not in the main process: a File cannot cross IPC, and only the preload's webUtils can
  // see where it came from. It answers '' for a File made by the page (no file behind it).
  pathForFile: (file) => {
    try {
      const path = webUtils.getPathForFile(file);
      return path === '' ? null : path;
    } catch {
      return null;
    }
  },
  keepSecret: (accessKey, secret) => invoke(IpcChannels.keepSecret, accessKey, secret),
  readSecret: (accessKey) => invoke(IpcChannels.readSecret, accessKey),
  forgetSecret: (accessKey) => invoke(IpcChannels.forgetSecret, accessKey),
  getLaunchAtLogin: () => invoke(IpcChannels.getLaunchAtLogin),
  setLaunchAtLogin: (on) => invoke(IpcChannels.setLaunchAtLogin, on),
  openFolder: (path) => invoke(IpcChannels.openFolder, path),
  appVersion: () => invoke(IpcChannels.appVersion),
};

contextBridge.exposeInMainWorld(BRIDGE_GLOBAL, bridge);
