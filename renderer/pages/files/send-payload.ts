/**
 * Step 2 of an upload: the bytes to the signed address, with XMLHttpRequest, because fetch reports no
 * upload progress (and cannot stream a request body over HTTP/1.1 in Chrome). abort() really stops the
 * bytes: the connection closes, and a step 2 the service had not committed yet stores nothing. Whether it had
 * is the service's to say (use-uploads.ts asks it on Cancel, lib/upload-cancel.ts).
 */
import { ApiError, apiErrorOf } from '../../api/api-error.js';
import { UNREACHABLE_MESSAGE } from '../../api/core.js';
import { isRecord } from '../../api/shape.js';

export interface StepTwoAnswer {
  status: number;
  header(name: string): string | null;
  text: string;
}

export interface SendOptions {
  signal: AbortSignal;
  /** Bytes of the body sent so far. */
  onProgress: (sent: number) => void;
  /** The whole body is sent; the service is storing it. */
  onSent: () => void;
}

const abortError = () => new DOMException('The upload was cancelled.', 'AbortError');

/** Sends `body` and answers the service's response; an error envelope rejects as an ApiError, as API calls do. */
export function sendPayload(url: string, body: Blob, contentType: string, expected: number, options: SendOptions): Promise<StepTwoAnswer> {
  const { signal } = options;
  return new Promise<StepTwoAnswer>((resolve, reject) => {
    if (signal.aborted) {
      reject(abortError());
      return;
    }
    const request = new XMLHttpRequest();
    const abort = () => request.abort();
    signal.addEventListener('abort', abort, { once: true });
    const done = () => signal.removeEventListener('abort', abort);
    request.upload.onprogress = (event) => options.onProgress(event.loaded);
    request.upload.onload = () => options.onSent();
    request.onabort = () => {
      done();
      reject(abortError());
    };
    request.onerror = () => {
      done();
      reject(new ApiError('network', 0, UNREACHABLE_MESSAGE));
    };
    request.onload = () => {
      done();
      const answer: StepTwoAnswer = { status: request.status, header: (name) => request.getResponseHeader(name), text: request.responseText };
      if (request.status === expected) resolve(answer);
      else reject(refusal(answer));
    };
    request.open('POST', url);
    // Any type but multipart/form-data is the raw payload (contract section 4); a File's own type is not sent.
    request.setRequestHeader('Content-Type', contentType);
    request.send(body);
  });
}

/** The service's error envelope as an ApiError, or a protocol error when the answer is not one. */
function refusal(answer: StepTwoAnswer): ApiError {
  try {
    const body: unknown = JSON.parse(answer.text);
    if (isRecord(body) && typeof body.code === 'number' && typeof body.msg === 'string') return apiErrorOf(body, answer.status);
  } catch {
    // Not JSON: said below.
  }
  return new ApiError('protocol', answer.status, `The service answered ${answer.status} to the upload.`);
}
