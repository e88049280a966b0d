import { useCallback, useEffect, useReducer, useState } from 'react';
import type { UnixfsImportOptions } from '../../../shared/unixfs-profiles.js';
import { useApi } from '../../app/session.js';
import { EMPTY_UPLOAD_QUEUE, uploadQueueReducer, type UploadQueue } from '../../lib/upload-queue.js';
import type { UploadSource } from './dropped-items.js';
import { createUploadRunner, type Uploaded } from './upload-runner.js';

export type { Uploaded } from './upload-runner.js';

export interface Uploads {
  queue: UploadQueue;
  add: (sources: UploadSource[]) => void;
  cancel: (id: string) => void;
  cancelAll: () => void;
  retry: (id: string) => void;
  dismiss: (id: string) => void;
}

/**
 * Runs the Files page's uploads (upload-runner.ts): a few at a time, each a file (POST /ipfs/) or a folder
 * (its CAR built in a worker, then dag/import), with progress into the queue and a Cancel that asks the
 * service what became of the upload. Folders wait for `layout` (the service's CID profile). Leaving the
 * page cancels what still runs.
 */
export function useUploads({ layout, onUploaded }: { layout: UnixfsImportOptions | null; onUploaded: (uploaded: Uploaded) => void }): Uploads {
  const api = useApi();
  const [queue, dispatch] = useReducer(uploadQueueReducer, EMPTY_UPLOAD_QUEUE);
  // One runner for the page's life (the session's client does not change under a page).
  const [runner] = useState(() => createUploadRunner({ uploads: api.uploads, dispatch }));

  useEffect(() => runner.listen(onUploaded), [runner, onUploaded]);
  useEffect(() => () => runner.stopAll(), [runner]);
  useEffect(() => {
    runner.startReady(queue, layout);
  }, [runner, queue, layout]);

  const cancelAll = useCallback(() => {
    for (const job of queue.jobs) runner.cancel(job.id);
  }, [runner, queue]);
  const retry = useCallback((id: string) => dispatch({ type: 'retried', id }), []);
  return { queue, add: runner.add, cancel: runner.cancel, cancelAll, retry, dismiss: runner.dismiss };
}
