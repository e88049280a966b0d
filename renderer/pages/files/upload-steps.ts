/**
 * The steps of one upload, apart from the runner that schedules and cancels them (upload-runner.ts): a
 * file is step 1 (its signed address) then step 2 (its bytes, POST /ipfs/); a folder is its CAR built in
 * a worker, then the same two steps to dag/import. Each step reports into the upload queue.
 */
import type { UnixfsImportOptions } from '../../../shared/unixfs-profiles.js';
import { ApiError } from '../../api/api-error.js';
import { isRecord } from '../../api/shape.js';
import type { UploadsApi } from '../../api/uploads.js';
import { describeError } from '../../lib/messages.js';
import { stepTwoUrl } from '../../lib/upload-address.js';
import type { UploadEvent } from '../../lib/upload-queue.js';
import type { UploadSource } from './dropped-items.js';
import { buildFolderCarInWorker } from './folder-car-client.js';
import { sendPayload } from './send-payload.js';

export interface UploadStepContext {
  uploads: UploadsApi;
  dispatch: (event: UploadEvent) => void;
  /** Step 1 of upload `id` answered `url`: what a Cancel asks the service about from now on. */
  addressed: (id: string, url: string) => void;
}

export const cancelled = () => new DOMException('The upload was cancelled.', 'AbortError');

/**
 * The step-2 address of upload `id`, from step 1 (which is not aborted halfway: its reservation is then
 * certain). Cancelled meanwhile, the address is given back at once, so no step 2 can use it.
 */
async function stepTwoAddress(context: UploadStepContext, id: string, address: Promise<string>, signal: AbortSignal): Promise<string> {
  const url = stepTwoUrl(await address, window.location.origin);
  if (signal.aborted) {
    context.uploads.cancel(url).catch(() => undefined);
    throw cancelled();
  }
  context.addressed(id, url);
  return url;
}

/** One file: the CID the service gives its bytes. */
export async function uploadFile(context: UploadStepContext, id: string, file: Blob, signal: AbortSignal): Promise<string> {
  context.dispatch({ type: 'sending', id, payload: file.size });
  const url = await stepTwoAddress(context, id, context.uploads.fileAddress(file.size), signal);
  const answer = await sendStepTwo(context, url, file, 'application/octet-stream', 201, id, signal);
  const cid = answer.header('ipfs-hash');
  if (!cid) throw new ApiError('protocol', answer.status, 'The service stored the file but did not say its CID.');
  return cid;
}

/** One folder, laid out as the service would (`layout`): its root's CID, which the service must import as the root. */
export async function uploadFolder(
  context: UploadStepContext,
  id: string,
  source: Extract<UploadSource, { kind: 'folder' }>,
  layout: UnixfsImportOptions,
  signal: AbortSignal,
): Promise<string> {
  const { dispatch } = context;
  dispatch({ type: 'reading', id });
  const built = await buildFolderCarInWorker(source.entries, layout, {
    signal,
    onProgress: (progress) => dispatch({ type: 'read', id, files: progress.filesDone, bytes: progress.bytesDone, path: progress.currentPath }),
  });
  dispatch({ type: 'sending', id, payload: built.car.size });
  const url = await stepTwoAddress(context, id, context.uploads.carAddress(built.car.size), signal);
  const answer = await sendStepTwo(context, url, built.car, 'application/vnd.ipld.car', 200, id, signal);
  const root = importedRoot(answer.text);
  if (root !== built.root) throw new ApiError('protocol', answer.status, `The service imported ${root ?? 'no root'} instead of the folder's ${built.root}.`);
  return root;
}

/** Step 2, its progress into the queue. */
function sendStepTwo(context: UploadStepContext, url: string, body: Blob, type: string, expected: number, id: string, signal: AbortSignal) {
  const { dispatch } = context;
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

/** Why an upload failed, as its row says it. */
export function uploadFailure(error: unknown): string {
  if (error instanceof ApiError) return describeError(error);
  const message = error instanceof Error ? error.message : String(error);
  return message.charAt(0).toUpperCase() + message.slice(1);
}
