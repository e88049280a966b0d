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

  // The window's desktop features (issue 12, api12 section 9). Optional until the desktop app provides
  // them (issue 13 adds the preload methods, their channels and the main-process handlers); the
  // renderer checks for each before offering what it does.

  /** The absolute path of a dropped or picked File (Electron's webUtils.getPathForFile in the preload); null when it has none. */
  pathForFile?(file: File): string | null;
  /** Keeps a key's secret in the OS keychain; false when the keychain refused. */
  keepSecret?(accessKey: string, secret: string): Promise<boolean>;
  /** A secret kept with keepSecret, or null. */
  readSecret?(accessKey: string): Promise<string | null>;
  forgetSecret?(accessKey: string): Promise<void>;
  /** Whether the desktop app starts at login. */
  getLaunchAtLogin?(): Promise<boolean>;
  setLaunchAtLogin?(on: boolean): Promise<void>;
  /** Shows a folder in the system file manager; false when it does not exist. */
  openFolder?(path: string): Promise<boolean>;
  /** The desktop app's version. */
  appVersion?(): Promise<string>;
}

/** The property of `window` the bridge is exposed under. */
export const BRIDGE_GLOBAL = 'pinfold';

/** IPC channel names; the preload and main/desktop/ipc.ts must agree on them, so they live here. */
export const IpcChannels = {
  getOwnerKey: 'pinfold:get-owner-key',
  pickFolder: 'pinfold:pick-folder',
  openExternal: 'pinfold:open-external',
} as const;

export type IpcChannel = (typeof IpcChannels)[keyof typeof IpcChannels];

/** Arguments and result of every channel: the single source both ends type against. */
export interface IpcContract {
  'pinfold:get-owner-key': { args: []; result: BridgeOwnerKey | null };
  'pinfold:pick-folder': { args: []; result: string | null };
  'pinfold:open-external': { args: [url: string]; result: boolean };
}
