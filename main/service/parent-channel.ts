import { parseParentMessage, type ParentToService, type ServiceToParent } from './messages.js';

/**
 * The service process's line to the process that started it: Electron's `process.parentPort` in the
 * desktop's utility process, Node's IPC channel (`process.send`) under a Node parent (the tests), none
 * for `pinfold serve` run from a shell.
 */
export interface ParentChannel {
  /** Resolves once the message has left this process (so exiting after it loses nothing). */
  send(message: ServiceToParent): Promise<void>;
  onMessage(listener: (message: ParentToService) => void): void;
  /** The parent went away (Node IPC only); an orphaned service stops rather than hold the data folder. */
  onDisconnect(listener: () => void): void;
  /** Lets the process end: the channel no longer keeps it alive. */
  close(): void;
}

/** Electron's ParentPort, the part used here. */
interface ParentPortLike {
  on(event: 'message', listener: (event: { data: unknown }) => void): unknown;
  removeAllListeners(event: 'message'): unknown;
  postMessage(message: unknown): void;
}

type ServiceProcess = NodeJS.Process & { parentPort?: ParentPortLike };

export function parentChannel(proc: ServiceProcess = process): ParentChannel | null {
  const port = proc.parentPort;
  if (port !== undefined) {
    return {
      send: async (message) => port.postMessage(message),
      onMessage(listener) {
        port.on('message', (event) => {
          const parsed = parseParentMessage(event.data);
          if (parsed) listener(parsed);
        });
      },
      onDisconnect: () => undefined,
      close: () => void port.removeAllListeners('message'),
    };
  }
  const send = proc.send?.bind(proc);
  if (send === undefined || !proc.connected) return null;
  return {
    send: (message) =>
      new Promise((resolve, reject) => {
        if (!proc.connected) return resolve();
        send(message, undefined, {}, (error: Error | null) => (error ? reject(error) : resolve()));
      }),
    onMessage(listener) {
      proc.on('message', (message: unknown) => {
        const parsed = parseParentMessage(message);
        if (parsed) listener(parsed);
      });
    },
    onDisconnect(listener) {
      proc.once('disconnect', listener);
    },
    close() {
      proc.removeAllListeners('message');
      proc.removeAllListeners('disconnect');
      if (proc.connected) proc.disconnect();
    },
  };
}
