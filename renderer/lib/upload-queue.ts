/**
 * The Files page's uploads as state: a reducer over what happens to each upload (queued, a folder read and
 * hashed, its bytes sent, stored, failed, cancelled) and what the page shows of them, per upload and in
 * total. Pure: the page's runner does the work and reports here.
 *
 * A job is one dropped or picked file (its own CID) or one folder (one directory CID). A finished job leaves
 * the queue (it is in the recent uploads then) but keeps counting in the total until the run is over, so the
 * total bar never goes backwards; failed and cancelled jobs stay, with their reason, until dismissed.
 *
 * A Cancel is not assumed to have worked: the job is `cancelling` until the service said what became of it
 * (lib/upload-cancel.ts): `cancelled` (nothing stored), or `kept` when it had committed first (stored, under
 * `cid`), or `failed` when the service could not say.
 */
import { formatBytes, formatCount } from './format.js';

export type UploadKind = 'file' | 'folder';

/**
 * `reading`: a folder's files are read and hashed into its CAR; `storing`: everything is sent, the service is
 * storing it; `cancelling`: stopped, the service asked what it did; `kept`: stored before the cancel took effect.
 */
export type UploadPhase = 'waiting' | 'reading' | 'sending' | 'storing' | 'cancelling' | 'failed' | 'cancelled' | 'kept';

export interface UploadJob {
  id: string;
  kind: UploadKind;
  name: string;
  /** Files in it (1 for a file). */
  files: number;
  /** Bytes of content. */
  bytes: number;
  phase: UploadPhase;
  /** A folder's files and bytes read and hashed so far, and the path read last. */
  read: { files: number; bytes: number; path: string };
  /** Bytes of step 2's body sent so far, of `payload` (the file itself, or the folder's CAR). */
  sent: number;
  payload: number;
  error: string | null;
  /** What the service stored it under, when it committed though it was cancelled (`kept`). */
  cid: string | null;
}

export type NewUploadJob = Pick<UploadJob, 'id' | 'kind' | 'name' | 'files' | 'bytes'>;

export interface UploadQueue {
  jobs: UploadJob[];
  /** The jobs of the current run that finished and left the queue. */
  finished: { jobs: number; weight: number };
}

export type UploadEvent =
  | { type: 'added'; jobs: NewUploadJob[] }
  | { type: 'reading'; id: string }
  | { type: 'read'; id: string; files: number; bytes: number; path: string }
  | { type: 'sending'; id: string; payload: number }
  | { type: 'sent'; id: string; bytes: number }
  | { type: 'storing'; id: string }
  | { type: 'finished'; id: string }
  | { type: 'failed'; id: string; error: string }
  | { type: 'cancelling'; id: string }
  | { type: 'cancelled'; id: string }
  | { type: 'kept'; id: string; cid: string }
  | { type: 'retried'; id: string }
  | { type: 'dismissed'; id: string };

export const EMPTY_UPLOAD_QUEUE: UploadQueue = { jobs: [], finished: { jobs: 0, weight: 0 } };

/** A file of no bytes still takes a request (or a block): it weighs as this many bytes in the total. */
const FILE_WEIGHT = 4096;

export function isActive(job: UploadJob): boolean {
  return job.phase !== 'failed' && job.phase !== 'cancelled' && job.phase !== 'kept';
}

export function isRunning(job: UploadJob): boolean {
  return job.phase === 'reading' || job.phase === 'sending' || job.phase === 'storing';
}

function weightOf(job: Pick<UploadJob, 'bytes' | 'files'>): number {
  return job.bytes + FILE_WEIGHT * Math.max(job.files, 1);
}

/** Which phases an event may move a job out of: a late progress report after a cancel changes nothing. */
const FROM: Record<Exclude<UploadEvent['type'], 'added'>, readonly UploadPhase[]> = {
  reading: ['waiting'],
  read: ['reading'],
  sending: ['waiting', 'reading'],
  sent: ['sending'],
  storing: ['sending'],
  finished: ['sending', 'storing'],
  failed: ['waiting', 'reading', 'sending', 'storing', 'cancelling'],
  cancelling: ['waiting', 'reading', 'sending', 'storing'],
  cancelled: ['waiting', 'reading', 'sending', 'storing', 'cancelling'],
  kept: ['cancelling'],
  retried: ['failed', 'cancelled'],
  dismissed: ['failed', 'cancelled', 'kept'],
};

export function uploadQueueReducer(queue: UploadQueue, event: UploadEvent): UploadQueue {
  if (event.type === 'added') {
    const known = new Set(queue.jobs.map((job) => job.id));
    const added = event.jobs
      .filter((job) => !known.has(job.id))
      .map((job): UploadJob => ({ ...job, phase: 'waiting', read: { files: 0, bytes: 0, path: '' }, sent: 0, payload: 0, error: null, cid: null }));
    return added.length === 0 ? queue : { ...queue, jobs: [...queue.jobs, ...added] };
  }
  const job = queue.jobs.find((candidate) => candidate.id === event.id);
  if (!job || !FROM[event.type].includes(job.phase)) return queue;
  if (event.type === 'finished') {
    return settle({
      jobs: queue.jobs.filter((candidate) => candidate !== job),
      finished: { jobs: queue.finished.jobs + 1, weight: queue.finished.weight + weightOf(job) },
    });
  }
  if (event.type === 'dismissed') return settle({ ...queue, jobs: queue.jobs.filter((candidate) => candidate !== job) });
  const next = nextJob(job, event);
  return settle({ ...queue, jobs: queue.jobs.map((candidate) => (candidate === job ? next : candidate)) });
}

function nextJob(job: UploadJob, event: Exclude<UploadEvent, { type: 'added' | 'finished' | 'dismissed' }>): UploadJob {
  switch (event.type) {
    case 'reading':
      return { ...job, phase: 'reading' };
    case 'read':
      return { ...job, read: { files: event.files, bytes: event.bytes, path: event.path } };
    case 'sending':
      return {
        ...job,
        phase: 'sending',
        payload: event.payload,
        sent: 0,
        read: job.kind === 'folder' ? { ...job.read, files: job.files, bytes: job.bytes } : job.read,
      };
    case 'sent':
      return { ...job, sent: Math.min(Math.max(event.bytes, job.sent), job.payload) };
    case 'storing':
      return { ...job, phase: 'storing', sent: job.payload };
    case 'failed':
      return { ...job, phase: 'failed', error: event.error };
    case 'cancelling':
      return { ...job, phase: 'cancelling', error: null };
    case 'cancelled':
      return { ...job, phase: 'cancelled', error: null };
    case 'kept':
      return { ...job, phase: 'kept', error: null, cid: event.cid };
    case 'retried':
      return { ...job, phase: 'waiting', read: { files: 0, bytes: 0, path: '' }, sent: 0, payload: 0, error: null, cid: null };
  }
}

/** When nothing is left to do, the next drop starts a new run (and a new total). */
function settle(queue: UploadQueue): UploadQueue {
  return queue.jobs.some(isActive) ? queue : { ...queue, finished: { jobs: 0, weight: 0 } };
}

/** Jobs to start now so that at most `limit` run at once, first come first served. */
export function startableJobs(queue: UploadQueue, limit: number): UploadJob[] {
  const free = limit - queue.jobs.filter(isRunning).length;
  return free <= 0 ? [] : queue.jobs.filter((job) => job.phase === 'waiting').slice(0, free);
}

/** How far a job is, 0..1: a file by the bytes sent; a folder half by reading and hashing, half by sending. */
export function jobFraction(job: UploadJob): number {
  if (job.phase === 'storing') return 1;
  const sent = job.payload > 0 ? job.sent / job.payload : 0;
  if (job.kind === 'file') return job.phase === 'sending' ? sent : 0;
  const read = job.bytes > 0 ? job.read.bytes / job.bytes : job.files > 0 ? job.read.files / job.files : 1;
  return job.phase === 'sending' ? 0.5 + sent / 2 : job.phase === 'reading' ? read / 2 : 0;
}

export interface UploadTotals {
  /** 0..1 over the run: finished jobs and the active ones, by weight. */
  fraction: number;
  /** Jobs of the run: finished and still active. */
  jobs: number;
  done: number;
  /** Bytes of content still to upload or being uploaded. */
  bytes: number;
}

export function uploadTotals(queue: UploadQueue): UploadTotals {
  const active = queue.jobs.filter(isActive);
  const weight = queue.finished.weight + active.reduce((sum, job) => sum + weightOf(job), 0);
  const progressed = queue.finished.weight + active.reduce((sum, job) => sum + weightOf(job) * jobFraction(job), 0);
  return {
    fraction: weight > 0 ? progressed / weight : 0,
    jobs: queue.finished.jobs + active.length,
    done: queue.finished.jobs,
    bytes: active.reduce((sum, job) => sum + job.bytes, 0),
  };
}

/** What a job's progress says in words, for its bar and for screen readers. */
export function describeJob(job: UploadJob): string {
  switch (job.phase) {
    case 'waiting':
      return job.kind === 'folder'
        ? `Waiting · ${formatCount(job.files)} ${job.files === 1 ? 'file' : 'files'}, ${formatBytes(job.bytes)}`
        : `Waiting · ${formatBytes(job.bytes)}`;
    case 'reading':
      return `Reading ${formatCount(job.read.files)} of ${formatCount(job.files)} files · ${formatBytes(job.read.bytes)} of ${formatBytes(job.bytes)}`;
    case 'sending':
      return `Uploading ${formatBytes(job.sent)} of ${formatBytes(job.payload)}`;
    case 'storing':
      return 'Storing on the service…';
    case 'cancelling':
      return 'Cancelling…';
    case 'failed':
      return job.error ?? 'Failed.';
    case 'cancelled':
      return 'Cancelled. Nothing was stored.';
    case 'kept':
      return `Not cancelled: the service had stored it already, as ${job.cid ?? 'an unknown CID'}.`;
  }
}
