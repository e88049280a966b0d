/**
 * The uploads of the Files page at work, apart from React: the sources waiting, the uploads running (what
 * stops each, its step-2 address once step 1 answered, its result), starting what the queue lets start,
 * and a Cancel that aborts whatever the upload is doing and then asks the service what became of it
 * (lib/upload-cancel.ts): it may have committed first. The queue's state is the reducer's
 * (lib/upload-queue.ts); this sends it events.
 */
import type { UnixfsImportOptions } from '../../../shared/unixfs-profiles.js';
import { isAbortError } from '../../api/api-error.js';
import type { UploadsApi } from '../../api/uploads.js';
import { settleCancel } from '../../lib/upload-cancel.js';
import { startableJobs, type NewUploadJob, type UploadEvent, type UploadKind, type UploadQueue } from '../../lib/upload-queue.js';
import type { UploadSource } from './dropped-items.js';
import { uploadFailure, uploadFile, uploadFolder, type UploadStepContext } from './upload-steps.js';

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

export interface UploadRunnerInit {
  /** The session's uploads API. */
  uploads: UploadsApi;
  dispatch: (event: UploadEvent) => void;
}

export interface UploadRunner {
  add: (sources: UploadSource[]) => void;
  /** Starts what the queue lets start; folders wait for `layout` (the service's CID profile). */
  startReady: (queue: UploadQueue, layout: UnixfsImportOptions | null) => void;
  cancel: (id: string) => void;
  dismiss: (id: string) => void;
  /** The page goes: every upload stops, and the service is told of those that had an address. */
  stopAll: () => void;
  /** Who hears of each upload stored (also one the service had stored before a Cancel reached it): the page's latest listener. */
  listen: (listener: (uploaded: Uploaded) => void) => void;
}

function uploadedOf(source: UploadSource, cid: string, afterCancel: boolean): Uploaded {
  const size = source.kind === 'file' ? source.file.size : source.bytes;
  return { cid, name: source.name, kind: source.kind, size, files: source.kind === 'file' ? 1 : source.files, afterCancel };
}

function jobOf(id: string, source: UploadSource): NewUploadJob {
  return source.kind === 'file'
    ? { id, kind: source.kind, name: source.name, files: 1, bytes: source.file.size }
    : { id, kind: source.kind, name: source.name, files: source.files, bytes: source.bytes };
}

export function createUploadRunner({ uploads, dispatch }: UploadRunnerInit): UploadRunner {
  const sources = new Map<string, UploadSource>();
  const running = new Map<string, RunningUpload>();
  let nextId = 1;
  let onUploaded: (uploaded: Uploaded) => void = () => undefined;
  const steps = (): UploadStepContext => ({
    uploads,
    dispatch,
    addressed: (id, url) => {
      const upload = running.get(id);
      if (upload) upload.address = url;
    },
  });

  const start = (id: string, source: UploadSource, layout: UnixfsImportOptions | null) => {
    const controller = new AbortController();
    const work =
      source.kind === 'file'
        ? uploadFile(steps(), id, source.file, controller.signal)
        : layout
          ? uploadFolder(steps(), id, source, layout, controller.signal)
          : Promise.reject(new Error('the service’s CID profile is not known yet'));
    // Set before the work first awaits anything it needs from it (its address, after step 1 answered).
    running.set(id, { controller, address: null, work, cancelling: false });
    work
      .then((cid) => {
        // Cancelled: the cancel decides what it came to (the answer may have arrived first: then it is stored).
        if (controller.signal.aborted) return;
        dispatch({ type: 'finished', id });
        sources.delete(id);
        onUploaded(uploadedOf(source, cid, false));
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted || isAbortError(error)) return;
        dispatch({ type: 'failed', id, error: uploadFailure(error) });
      })
      .finally(() => running.delete(id));
  };

  const settle = (id: string, upload: RunningUpload) => {
    const cancelAddress = (address: string) => uploads.cancel(address);
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
      const source = sources.get(id);
      sources.delete(id);
      if (source) onUploaded(uploadedOf(source, verdict.cid, true));
    });
  };

  return {
    add(added) {
      const jobs = added.map((source) => {
        const id = `upload-${nextId++}`;
        sources.set(id, source);
        return jobOf(id, source);
      });
      if (jobs.length > 0) dispatch({ type: 'added', jobs });
    },
    startReady(queue, layout) {
      for (const job of startableJobs(queue, CONCURRENT_UPLOADS)) {
        const source = sources.get(job.id);
        if (!source || running.has(job.id) || (source.kind === 'folder' && !layout)) continue;
        start(job.id, source, layout);
      }
    },
    cancel(id) {
      const upload = running.get(id);
      if (upload === undefined) {
        // Not started: nothing was sent.
        dispatch({ type: 'cancelled', id });
        return;
      }
      if (upload.cancelling) return;
      upload.cancelling = true;
      dispatch({ type: 'cancelling', id });
      upload.controller.abort();
      settle(id, upload);
    },
    dismiss(id) {
      sources.delete(id);
      dispatch({ type: 'dismissed', id });
    },
    stopAll() {
      for (const upload of running.values()) {
        upload.controller.abort();
        // Nobody is left to hear what it came to; the service is still told, so it stores nothing it need not.
        if (upload.address !== null) uploads.cancel(upload.address).catch(() => undefined);
      }
    },
    listen(listener) {
      onUploaded = listener;
    },
  };
}
