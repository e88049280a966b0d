import { IpcChannels, type BridgeOwnerKey, type IpcChannel, type IpcContract } from '../../shared/preload-bridge.js';
import { isAllowedExternalUrl, isRendererUrl } from './external-urls.js';
import type { KeySecretStore } from './key-secrets.js';
import type { LaunchAtLogin } from './launch-at-login.js';

/** The part of an invoke event that says who sent it (Electron's IpcMainInvokeEvent has it). */
export interface IpcSender {
  sender: { id: number };
  senderFrame: { url: string; parent: unknown } | null;
}

/** The part of Electron's ipcMain used here (a hand-written stand-in in tests). */
export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcSender, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}

export interface IpcDeps {
  /** Origin of the local service, e.g. http://127.0.0.1:5080: the only page allowed to call. */
  serviceOrigin: string;
  /**
   * Whether this webContents is the window of the current verified run of the service (window-guard.ts):
   * the origin alone proves nothing, since any program may answer on the port while the service is down.
   */
  isTrustedWindow(webContentsId: number): boolean;
  ownerKey(): BridgeOwnerKey | null;
  pickFolder(): Promise<string | null>;
  openExternal(url: string): Promise<void>;
  keySecrets: KeySecretStore;
  launchAtLogin: LaunchAtLogin;
  /**
   * Opens a folder in the file manager after checking it may be opened (folder-access.ts): false when
   * it does not exist; a FolderNotAllowedError for any other path.
   */
  openFolder(path: string): Promise<boolean>;
  appVersion: string;
  allowedHosts?: readonly string[];
}

export class UntrustedSenderError extends Error {
  override readonly name = 'UntrustedSenderError';
}

/** A renderer sent an argument of the wrong type or form: the channel did nothing. */
export class BridgeArgumentError extends Error {
  override readonly name = 'BridgeArgumentError';
}

/**
 * Only the renderer's own top frame (on one of its pages) on the service origin, in the window of the
 * current verified run, may use the bridge.
 */
export function isTrustedSender(event: IpcSender, serviceOrigin: string, isTrustedWindow: (webContentsId: number) => boolean): boolean {
  const frame = event.senderFrame;
  return frame !== null && frame.parent === null && isRendererUrl(frame.url, serviceOrigin) && isTrustedWindow(event.sender.id);
}

const ACCESS_KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Contract section 2: base64url of 48 random bytes, 64 characters. */
const ACCESS_SECRET = /^[A-Za-z0-9_-]{64}$/;

function accessKeyArg(value: unknown): string {
  if (typeof value !== 'string' || !ACCESS_KEY.test(value)) throw new BridgeArgumentError('accessKey must be an access key (a UUID)');
  return value.toLowerCase();
}

function secretArg(value: unknown): string {
  if (typeof value !== 'string' || !ACCESS_SECRET.test(value)) throw new BridgeArgumentError('secret must be an access secret (64 base64url characters)');
  return value;
}

function booleanArg(value: unknown, name: string): boolean {
  if (typeof value !== 'boolean') throw new BridgeArgumentError(`${name} must be true or false`);
  return value;
}

function noArgs(args: unknown[]): void {
  if (args.length > 0) throw new BridgeArgumentError('this call takes no arguments');
}

function argCount(args: unknown[], count: number): void {
  if (args.length !== count) throw new BridgeArgumentError(`this call takes ${count} argument${count === 1 ? '' : 's'}, got ${args.length}`);
}

type Handlers = { [C in IpcChannel]: (args: unknown[]) => Promise<IpcContract[C]['result']> };

/** What each channel does; arguments come from a renderer, so they are checked here, at runtime, before anything happens. */
export function ipcHandlers(deps: IpcDeps): Handlers {
  return {
    [IpcChannels.getOwnerKey]: async (args) => {
      noArgs(args);
      return deps.ownerKey();
    },
    [IpcChannels.pickFolder]: async (args) => {
      noArgs(args);
      return deps.pickFolder();
    },
    [IpcChannels.openExternal]: async ([url]) => {
      if (!isAllowedExternalUrl(url, deps.serviceOrigin, deps.allowedHosts)) return false;
      await deps.openExternal(url as string);
      return true;
    },
    [IpcChannels.keepSecret]: async (args) => {
      argCount(args, 2);
      const accessKey = accessKeyArg(args[0]);
      return deps.keySecrets.keep(accessKey, secretArg(args[1]));
    },
    [IpcChannels.readSecret]: async (args) => {
      argCount(args, 1);
      return deps.keySecrets.read(accessKeyArg(args[0]));
    },
    [IpcChannels.forgetSecret]: async (args) => {
      argCount(args, 1);
      await deps.keySecrets.forget(accessKeyArg(args[0]));
    },
    [IpcChannels.getLaunchAtLogin]: async (args) => {
      noArgs(args);
      return deps.launchAtLogin.isEnabled();
    },
    [IpcChannels.setLaunchAtLogin]: async (args) => {
      argCount(args, 1);
      await deps.launchAtLogin.setEnabled(booleanArg(args[0], 'on'));
    },
    [IpcChannels.openFolder]: async (args) => {
      argCount(args, 1);
      const [path] = args;
      if (typeof path !== 'string' || path === '') throw new BridgeArgumentError('path must be a folder path');
      return deps.openFolder(path);
    },
    [IpcChannels.appVersion]: async (args) => {
      noArgs(args);
      return deps.appVersion;
    },
  };
}

/** Registers every channel with the sender check in front; returns a function that removes them. */
export function registerIpcHandlers(ipcMain: IpcMainLike, deps: IpcDeps): () => void {
  const handlers = ipcHandlers(deps);
  const channels = Object.keys(handlers) as IpcChannel[];
  for (const channel of channels) {
    ipcMain.handle(channel, async (event, ...args) => {
      if (!isTrustedSender(event, deps.serviceOrigin, (id) => deps.isTrustedWindow(id)))
        throw new UntrustedSenderError(`${channel} refused: not the Pinfold window`);
      return handlers[channel](args);
    });
  }
  return () => {
    for (const channel of channels) ipcMain.removeHandler(channel);
  };
}
