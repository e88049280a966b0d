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
