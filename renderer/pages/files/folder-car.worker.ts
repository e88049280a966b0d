/**
 * The Web Worker that turns a folder into its CAR (folder-car.ts), so that hashing thousands of files
 * never blocks the page: the page only hears progress, at most every PROGRESS_MS, and the finished CAR.
 */
import { buildFolderCar } from './folder-car.js';
import type { FolderCarReply, FolderCarRequest } from './folder-car-messages.js';

/** The parts of a dedicated worker's global scope used here (the renderer is typed with the DOM library). */
interface WorkerScope {
  onmessage: ((event: MessageEvent<FolderCarRequest>) => void) | null;
  postMessage(message: FolderCarReply): void;
}

const PROGRESS_MS = 100;
const scope = globalThis as unknown as WorkerScope;

scope.onmessage = (event) => {
  const { entries, layout } = event.data;
  let lastReport = 0;
  buildFolderCar(entries, layout, {
    onProgress(progress) {
      const now = performance.now();
      if (now - lastReport < PROGRESS_MS) return;
      lastReport = now;
      scope.postMessage({ type: 'progress', ...progress });
    },
  }).then(
    (built) => scope.postMessage({ type: 'done', ...built }),
    (error: unknown) => scope.postMessage({ type: 'failed', message: error instanceof Error ? error.message : String(error) }),
  );
};
