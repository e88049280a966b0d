import { CID } from 'multiformats/cid';
import type { ReadBlockstore } from '../content/read/index.js';
import { uniqueBytes } from '../content/walk/unique-bytes.js';
import type { Repositories } from '../store/repositories/index.js';

const PAGE = 16;

/**
 * Computes the unique bytes (content/walk/unique-bytes.ts) of the folder's kept versions that lack them:
 * each against its next newer kept version, so a settled batch costs one walk of what it changed, and a
 * version released by retention one walk for the version before it. A version whose neighbour changed
 * while it was walked is left for the next call (setHistoryBytes checks). Returns how many were recorded.
 */
export async function fillHistoryBytes(store: Pick<Repositories, 'sync'>, blocks: ReadBlockstore, folderId: string, signal?: AbortSignal): Promise<number> {
  let recorded = 0;
  const tried = new Set<number>();
  for (;;) {
    const pending = (await store.sync.pendingHistoryBytes(folderId, PAGE)).filter((version) => !tried.has(version.id));
    if (pending.length === 0) return recorded;
    for (const version of pending) {
      tried.add(version.id);
      const bytes = await uniqueBytes(blocks, CID.parse(version.root), CID.parse(version.newerRoot), { signal });
      if (await store.sync.setHistoryBytes(version.id, version.newerRoot, bytes)) recorded++;
    }
  }
}

export interface HistoryBytesWorker {
  /** Something happened to the folder (a batch settled, retention ran): fill what is missing, soon. */
  request(accountId: number, folderId: string): void;
  /** Resolves when every request so far has been handled. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export interface HistoryBytesWorkerInit {
  store: Pick<Repositories, 'sync'>;
  blocks: ReadBlockstore;
  /** Some figures were recorded: the folder's history_bytes moved. */
  onRecorded(accountId: number, folderId: string): void;
  onError(folderId: string, error: unknown): void;
  /** How long requests gather before a pass; default {@link GATHER_MS}. */
  gatherMs?: number;
}

/**
 * A folder's runner asks at every progress notice, several times a file while a large folder is read: a
 * pass per notice (a query each) cost the first sync of 10,000 files a fifth of its time
 * (test/bench/sync.ts). Requests gather this long, then one pass serves them all.
 */
export const GATHER_MS = 250;

/**
 * Runs {@link fillHistoryBytes} one folder at a time, off the request and batch paths. The requests that
 * arrive within {@link GATHER_MS} cost one pass after it; a folder that fails is tried again at its next
 * request.
 */
export function startHistoryBytesWorker(init: HistoryBytesWorkerInit): HistoryBytesWorker {
  const controller = new AbortController();
  const gatherMs = init.gatherMs ?? GATHER_MS;
  const queued = new Map<string, number>();
  let running: Promise<void> = Promise.resolve();
  // The pass being gathered: its timer, and what lets the chain go on before the timer when closing.
  let gathering: { timer: NodeJS.Timeout; release: () => void } | undefined;

  const drain = async (): Promise<void> => {
    for (let next = queued.entries().next(); !next.done && !controller.signal.aborted; next = queued.entries().next()) {
      const [folderId, accountId] = next.value;
      queued.delete(folderId);
      try {
        if ((await fillHistoryBytes(init.store, init.blocks, folderId, controller.signal)) > 0) init.onRecorded(accountId, folderId);
      } catch (error) {
        if (!controller.signal.aborted) init.onError(folderId, error);
      }
    }
  };

  return {
    request(accountId, folderId) {
      if (controller.signal.aborted) return;
      queued.set(folderId, accountId);
      if (gathering !== undefined) return;
      let release = (): void => {};
      const gathered = new Promise<void>((resolve) => (release = resolve));
      const timer = setTimeout(() => {
        gathering = undefined;
        release();
      }, gatherMs);
      gathering = { timer, release };
      // Passes run one after another: a request during a pass gathers for the next one.
      running = running.then(() => gathered).then(drain);
    },
    idle: () => running,
    async close() {
      controller.abort();
      if (gathering !== undefined) {
        clearTimeout(gathering.timer);
        gathering.release();
        gathering = undefined;
      }
      await running;
    },
  };
}
