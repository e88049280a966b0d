/** `http`: the service answered with an error envelope; `network`: no answer; `protocol`: an answer that is not the API's. */
export type ApiErrorKind = 'http' | 'network' | 'protocol';

/** Every failed API call rejects with this (an aborted one rejects with the fetch AbortError instead). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly kind: ApiErrorKind,
    /** The envelope's `code` (an HTTP status); 0 when there was no answer at all. */
    readonly code: number,
    /** The envelope's `msg`, or a description of what went wrong. */
    readonly msg: string,
  ) {
    super(code > 0 ? `${code}: ${msg}` : msg);
  }

  get isUnauthorized(): boolean {
    return this.kind === 'http' && this.code === 401;
  }

  get isUnreachable(): boolean {
    return this.kind === 'network';
  }
}

/** True for the rejection of a call whose AbortSignal fired: not a failure to report. */
export function isAbortError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';
}
