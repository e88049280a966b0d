import { useCallback, useEffect, useReducer, useRef } from 'react';
import type { UnixfsImportOptions } from '../../../shared/unixfs-profiles.js';
import { ApiError, isAbortError } from '../../api/api-error.js';
import { isRecord } from '../../api/shape.js';
import { useApi } from '../../app/session.js';
import { describeError } from '../../lib/messages.js';
import { stepTwoUrl } from '../../lib/upload-address.js';
import { settleCancel } from '../../lib/upload-cancel.js';
import { EMPTY_UPLOAD_QUEUE, startableJobs, uploadQueueReducer, type UploadEvent, type UploadKind, type UploadQueue } from '../../lib/upload-queue.js';
import type { UploadSource } from './dropped-items.js';
import { buildFolderCarInWorker } from './folder-car-client.js';
import { sendPayload } from './send-payload.js';

/** Uploads at once: enough to keep the connection busy with small files, few enough to keep each one moving. */
const CONCURRENT_UPLOADS = 3;

export interface Uploaded {
  cid: string;
  name: string;
  kind: UploadKind;
  size: number;
  files: number;
  /** Cancelled, but the service had stored it first: not pinned on its own. */
  afterCancel: boolean;
}

/** One upload at work: what stops it, the step-2 address once step 1 answered, and its result (a CID). */
interface RunningUpload {
  controller: AbortController;
  address: string | null;
  work: Promise<string>;
  /** Cancel was pressed: the service is being asked what it came to. */
  cancelling: boolean;
}

function uploadedOf(source: UploadSource, cid: string, afterCancel: boolean): Uploaded {
  const size = source.kind === 'file' ? source.file.size : source.bytes;
  return { cid, name: source.name, kind: source.kind, size, files: source.kind === 'file' ? 1 : source.files, afterCancel };
}

export interface Uploads {
  queue: UploadQueue;
  add: (sources: UploadSource[]) => void;
  cancel: (id: string) => void;
  cancelAll: () => void;
  retry: (id: string) => void;
  dismiss: (id: string) => void;
}

const cancelled = () => new DOMException('The upload was cancelled.', 'AbortError');

/**
 * Runs the Files page's uploads: a few at a time, each a file (POST /ipfs/) or a folder (its CAR built in
 * a worker, then dag/import), with progress into the queue and a Cancel that aborts whatever the upload is
 * doing and then asks the service what became of it (lib/upload-cancel.ts): it may have committed first.
 * Folders wait for `layout` (the service's CID profile). Leaving the page cancels what still runs.
 */
export function useUploads({ layout, onUploaded }: { layout: UnixfsImportOptions | null; onUploaded: (uploaded: Uploaded) => void }): Uploads {
  const api = useApi();
  const [queue, dispatch] = useReducer(uploadQueueReducer, EMPTY_UPLOAD_QUEUE);
  const sources = useRef(new Map<string, UploadSource>());
  const running = useRef(new Map<string, RunningUpload>());
  const nextId = useRef(1);
  const latest = useRef({ onUploaded, api });
  useEffect(() => {
    latest.current = { onUploaded, api };
  });

  useEffect(() => {
    const uploads = running.current;
    return () => {
      for (const upload of uploads.values()) {
        upload.controller.abort();
        // Nobody is left to hear what it came to; the service is still told, so it stores nothing it need not.
        if (upload.address !== null) latest.current.api.uploads.cancel(upload.address).catch(() => undefined);
      }
    };
  }, []);

  /**
   * The step-2 address of upload `id`, from step 1 (which is not aborted halfway: its reservation is then
   * certain). Cancelled meanwhile, the address is given back at once, so no step 2 can use it.
   */
  const stepTwoAddress = useCallback(async (id: string, address: Promise<string>, signal: AbortSignal): Promise<string> => {
    const url = stepTwoUrl(await address, window.location.origin);
    if (signal.aborted) {
      latest.current.api.uploads.cancel(url).catch(() => undefined);
      throw cancelled();
    }
    const upload = running.current.get(id);
    if (upload) upload.address = url;
    return url;
  }, []);

  const uploadFile = useCallback(
    async (id: string, file: Blob, signal: AbortSignal): Promise<string> => {
      dispatch({ type: 'sending', id, payload: file.size });
      const url = await stepTwoAddress(id, latest.current.api.uploads.fileAddress(file.size), signal);
      const answer = await sendStepTwo(dispatch, url, file, 'application/octet-stream', 201, id, signal);
      const cid = answer.header('ipfs-hash');
      if (!cid) throw new ApiError('protocol', answer.status, 'The service stored the file but did not say its CID.');
      return cid;
    },
    [stepTwoAddress],
  );

  const uploadFolder = useCallback(
    async (id: string, source: Extract<UploadSource, { kind: 'folder' }>, folderLayout: UnixfsImportOptions, signal: AbortSignal) => {
      dispatch({ type: 'reading', id });
      const built = await buildFolderCarInWorker(source.entries, folderLayout, {
        signal,
        onProgress: (progress) => dispatch({ type: 'read', id, files: progress.filesDone, bytes: progress.bytesDone, path: progress.currentPath }),
      });
      dispatch({ type: 'sending', id, payload: built.car.size });
      const url = await stepTwoAddress(id, latest.current.api.uploads.carAddress(built.car.size), signal);
      const answer = await sendStepTwo(dispatch, url, built.car, 'application/vnd.ipld.car', 200, id, signal);
      const root = importedRoot(answer.text);
      if (root !== built.root)
        throw new ApiError('protocol', answer.status, `The service imported ${root ?? 'no root'} instead of the folder's ${built.root}.`);
      return root;
    },
    [stepTwoAddress],
  );

  const start = useCallback(
    (id: string, source: UploadSource, folderLayout: UnixfsImportOptions | null) => {
      const controller = new AbortController();
      const work =
        source.kind === 'file'
          ? uploadFile(id, source.file, controller.signal)
          : folderLayout
            ? uploadFolder(id, source, folderLayout, controller.signal)
            : Promise.reject(new Error('the service’s CID profile is not known yet'));
      // Set before the work first awaits anything it needs from it (its address, after step 1 answered).
      running.current.set(id, { controller, address: null, work, cancelling: false });
      work
        .then((cid) => {
          // Cancelled: the cancel decides what it came to (the answer may have arrived first: then it is stored).
          if (controller.signal.aborted) return;
          dispatch({ type: 'finished', id });
          sources.current.delete(id);
          latest.current.onUploaded(uploadedOf(source, cid, false));
        })
        .catch((error: unknown) => {
          if (controller.signal.aborted || isAbortError(error)) return;
          dispatch({ type: 'failed', id, error: uploadFailure(error) });
        })
        .finally(() => running.current.delete(id));
    },
    [uploadFile, uploadFolder],
  );

  useEffect(() => {
    for (const job of startableJobs(queue, CONCURRENT_UPLOADS)) {
      const source = sources.current.get(job.id);
      if (!source || running.current.has(job.id) || (source.kind === 'folder' && !layout)) continue;
      start(job.id, source, layout);
    }
  }, [queue, layout, start]);

  const add = useCallback((added: UploadSource[]) => {
    const jobs = added.map((source) => {
      const id = `upload-${nextId.current++}`;
      sources.current.set(id, source);
      return source.kind === 'file'
        ? { id, kind: source.kind, name: source.name, files: 1, bytes: source.file.size }
        : { id, kind: source.kind, name: source.name, files: source.files, bytes: source.bytes };
    });
    if (jobs.length > 0) dispatch({ type: 'added', jobs });
  }, []);

  const cancel = useCallback((id: string) => {
    const upload = running.current.get(id);
    if (upload === undefined) {
      // Not started: nothing was sent.
      dispatch({ type: 'cancelled', id });
      return;
    }
    if (upload.cancelling) return;
    upload.cancelling = true;
    dispatch({ type: 'cancelling', id });
    upload.controller.abort();
    const cancelAddress = (address: string) => latest.current.api.uploads.cancel(address);
    void settleCancel({ work: upload.work, address: upload.address, cancelAddress }).then((verdict) => {
      if (verdict.kind === 'cancelled') {
        dispatch({ type: 'cancelled', id });
        return;
      }
      if (verdict.kind === 'unsure') {
        dispatch({ type: 'failed', id, error: `Cancelled, but ${verdict.reason}: it may have been stored.` });
        return;
      }
      dispatch({ type: 'kept', id, cid: verdict.cid });
      const source = sources.current.get(id);
      sources.current.delete(id);
      if (source) latest.current.onUploaded(uploadedOf(source, verdict.cid, true));
    });
  }, []);

  const queueRef = useRef(queue);
  useEffect(() => {
    queueRef.current = queue;
  });
  const cancelAll = useCallback(() => {
    for (const job of queueRef.current.jobs) cancel(job.id);
  }, [cancel]);

  const retry = useCallback((id: string) => dispatch({ type: 'retried', id }), []);
  const dismiss = useCallback((id: string) => {
    sources.current.delete(id);
    dispatch({ type: 'dismissed', id });
  }, []);

  return { queue, add, cancel, cancelAll, retry, dismiss };
}

/** Step 2, its progress into the queue. */
function sendStepTwo(dispatch: (event: UploadEvent) => void, url: string, body: Blob, type: string, expected: number, id: string, signal: AbortSignal) {
  return sendPayload(url, body, type, expected, {
    signal,
    onProgress: (bytes) => dispatch({ type: 'sent', id, bytes }),
    onSent: () => dispatch({ type: 'storing', id }),
  }).catch((error: unknown) => {
    // The address, not the key, is what step 2 is checked by: its 401 does not mean "sign in again".
    if (error instanceof ApiError && error.isUnauthorized) throw new Error(`the service refused the upload address: ${error.msg}. Try again.`);
    throw error;
  });
}

/** The CID of the root dag/import answered: `{"Roots":[{"Cid":{"/":"<cid>"}}], ...}`. */
function importedRoot(text: string): string | null {
  try {
    const body: unknown = JSON.parse(text);
    const roots = isRecord(body) ? body.Roots : undefined;
    const first: unknown = Array.isArray(roots) ? roots[0] : undefined;
    const cid = isRecord(first) && isRecord(first.Cid) ? first.Cid['/'] : undefined;
    return typeof cid === 'string' ? cid : null;
  } catch {
    return null;
  }
}

function uploadFailure(error: unknown): string {
  if (error instanceof ApiError) return describeError(error);
  const message = error instanceof Error ? error.message : String(error);
  return message.charAt(0).toUpperCase() + message.slice(1);
}
