import type { UnixfsImportOptions } from '../../../shared/unixfs-profiles.js';
import type { FolderCar, FolderCarProgress, FolderEntry } from './folder-car.js';
import type { FolderCarReply, FolderCarRequest } from './folder-car-messages.js';

/**
 * Builds a folder's CAR in a Web Worker of its own. Aborting terminates the worker at once (whatever it
 * was hashing); so does finishing, so no worker outlives its folder.
 */
export function buildFolderCarInWorker(
  entries: FolderEntry[],
  layout: UnixfsImportOptions,
  options: { signal: AbortSignal; onProgress: (progress: FolderCarProgress) => void },
): Promise<FolderCar> {
  const { signal } = options;
  return new Promise<FolderCar>((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const worker = new Worker(new URL('./folder-car.worker.ts', import.meta.url), { type: 'module', name: 'Pinfold folder CAR' });
    const finish = () => {
      worker.terminate();
      signal.removeEventListener('abort', abort);
    };
    const abort = () => {
      finish();
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', abort, { once: true });
    worker.onmessage = (event: MessageEvent<FolderCarReply>) => {
      const reply = event.data;
      if (reply.type === 'progress') {
        options.onProgress({ filesDone: reply.filesDone, bytesDone: reply.bytesDone, currentPath: reply.currentPath });
        return;
      }
      finish();
      if (reply.type === 'done') resolve({ root: reply.root, car: reply.car, blocks: reply.blocks });
      else reject(new Error(reply.message));
    };
    worker.onerror = (event) => {
      event.preventDefault();
      finish();
      reject(new Error(event.message || 'The folder could not be prepared in the background.'));
    };
    const request: FolderCarRequest = { entries, layout };
    worker.postMessage(request);
  });
}
