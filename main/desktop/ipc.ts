import { IpcChannels, type IpcChannel, type IpcContract } from '../../shared/preload-bridge.js';
import type { OwnerKey } from '../app.js';
import { isAllowedExternalUrl, isRendererUrl } from './external-urls.js';

/** The part of an invoke event that says who sent it (Electron's IpcMainInvokeEvent has it). */
export interface IpcSender {
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
  ownerKey(): OwnerKey | null;
  pickFolder(): Promise<string | null>;
  openExternal(url: string): Promise<void>;
  allowedHosts?: readonly string[];
}

export class UntrustedSenderError extends Error {
  override readonly name = 'UntrustedSenderError';
}

/** Only the renderer's own top frame on the service origin may use the bridge. */
export function isTrustedSender(event: IpcSender, serviceOrigin: string): boolean {
  const frame = event.senderFrame;
  return frame !== null && frame.parent === null && isRendererUrl(frame.url, serviceOrigin);
}

type Handlers = { [C in IpcChannel]: (args: unknown[]) => Promise<IpcContract[C]['result']> };

/** What each channel does; arguments come from a renderer, so they are checked here, at runtime. */
export function ipcHandlers(deps: IpcDeps): Handlers {
  return {
    [IpcChannels.getOwnerKey]: async () => deps.ownerKey(),
    [IpcChannels.pickFolder]: async () => deps.pickFolder(),
    [IpcChannels.openExternal]: async ([url]) => {
      if (!isAllowedExternalUrl(url, deps.serviceOrigin, deps.allowedHosts)) return false;
      await deps.openExternal(url as string);
      return true;
    },
  };
}

/** Registers every channel with the sender check in front; returns a function that removes them. */
export function registerIpcHandlers(ipcMain: IpcMainLike, deps: IpcDeps): () => void {
  const handlers = ipcHandlers(deps);
  const channels = Object.keys(handlers) as IpcChannel[];
  for (const channel of channels) {
    ipcMain.handle(channel, async (event, ...args) => {
      if (!isTrustedSender(event, deps.serviceOrigin)) throw new UntrustedSenderError(`${channel} refused: not the Pinfold window`);
      return handlers[channel](args);
    });
  }
  return () => {
    for (const channel of channels) ipcMain.removeHandler(channel);
  };
}
