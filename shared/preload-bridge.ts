/**
 * The typed bridge the desktop preload exposes to the renderer as `window.pinfold`. Only what the
 * HTTP API cannot do lives here; everything else goes over the same API as any other client.
 * No Node, DOM or Electron imports: main, preload and renderer all read this file.
 */

/** The owner's admin access key, handed to the desktop renderer so it signs in by itself. */
export interface BridgeOwnerKey {
  access_key: string;
  access_secret: string;
}

export interface PinfoldBridge {
  /** Always true: lets the renderer tell the desktop app from a plain browser. */
  readonly isDesktop: true;
  /** The owner key, or null when the window was not opened by the desktop app on its own service. */
  getOwnerKey(): Promise<BridgeOwnerKey | null>;
  /** A native folder picker; resolves the absolute path, or null when the user cancels. */
  pickFolder(): Promise<string | null>;
  /** Opens an http(s) URL on the allow-list in the system browser; false when the URL is refused. */
  openExternal(url: string): Promise<boolean>;
  /** The absolute path of a dropped or picked File (Electron's webUtils.getPathForFile in the preload); null when it has none. */
  pathForFile(file: File): string | null;
  /**
   * Keeps a key's secret in the OS keychain, filed under this data folder and the access key; false when
   * the keychain refused (none, locked). A malformed key or secret rejects.
   */
  keepSecret(accessKey: string, secret: string): Promise<boolean>;
  /** A secret kept with keepSecret for this data folder, or null (none kept, or the keychain did not answer). */
  readSecret(accessKey: string): Promise<string | null>;
  /** Deletes a kept secret; nothing happens when there is none. */
  forgetSecret(accessKey: string): Promise<void>;
  /** Whether the desktop app starts at login. */
  getLaunchAtLogin(): Promise<boolean>;
  setLaunchAtLogin(on: boolean): Promise<void>;
  /**
   * Shows a folder in the system file manager: a sync folder or the data folder (or a folder inside one);
   * false when it does not exist. Any other path rejects.
   */
  openFolder(path: string): Promise<boolean>;
  /** The desktop app's version. */
  appVersion(): Promise<string>;
}

/** The property of `window` the bridge is exposed under. */
export const BRIDGE_GLOBAL = 'pinfold';

/** IPC channel names; the preload and main/desktop/ipc.ts must agree on them, so they live here. */
export const IpcChannels = {
  getOwnerKey: 'pinfold:get-owner-key',
  pickFolder: 'pinfold:pick-folder',
  openExternal: 'pinfold:open-external',
  keepSecret: 'pinfold:keep-secret',
  readSecret: 'pinfold:read-secret',
  forgetSecret: 'pinfold:forget-secret',
  getLaunchAtLogin: 'pinfold:get-launch-at-login',
  setLaunchAtLogin: 'pinfold:set-launch-at-login',
  openFolder: 'pinfold:open-folder',
  appVersion: 'pinfold:app-version',
} as const;

export type IpcChannel = (typeof IpcChannels)[keyof typeof IpcChannels];

/** Arguments and result of every channel: the single source both ends type against. */
export interface IpcContract {
  'pinfold:get-owner-key': { args: []; result: BridgeOwnerKey | null };
  'pinfold:pick-folder': { args: []; result: string | null };
  'pinfold:open-external': { args: [url: string]; result: boolean };
  'pinfold:keep-secret': { args: [accessKey: string, secret: string]; result: boolean };
  'pinfold:read-secret': { args: [accessKey: string]; result: string | null };
  'pinfold:forget-secret': { args: [accessKey: string]; result: void };
  'pinfold:get-launch-at-login': { args: []; result: boolean };
  'pinfold:set-launch-at-login': { args: [on: boolean]; result: void };
  'pinfold:open-folder': { args: [path: string]; result: boolean };
  'pinfold:app-version': { args: []; result: string };
}
