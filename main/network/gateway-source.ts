import type { CID } from 'multiformats/cid';
import { verifyBlock } from '../base/hashes.js';
import type { FetchTuning } from './fetch-tuning.js';
import { retryAfterMs } from './retry-after.js';
import { SourceHealth } from './source-health.js';

/** The trustless gateway protocol's media types (ipfs/specs http-gateways/trustless-gateway). */
export const RAW_BLOCK_TYPE = 'application/vnd.ipld.raw';
export const CAR_TYPE = 'application/vnd.ipld.car';
const CAR_ACCEPT = `${CAR_TYPE};version=1;order=dfs;dups=n`;

/** What a source answered for one block. Every answer but `block` and `absent` has moved its health already. */
export type BlockAnswer =
  | { kind: 'block'; bytes: Uint8Array }
  /** It does not have the block (404, 410, 451). */
  | { kind: 'absent' }
  /** 429/503: asked again once its Retry-After has passed. */
  | { kind: 'busy' }
  | { kind: 'failed'; reason: string }
  /** The bytes do not hash to the CID: the source is set aside, nothing of it is kept. */
  | { kind: 'wrong'; reason: string };

export type CarAnswer =
  /** The response's body, piece by piece; ending the iteration early closes the connection. */
  | { kind: 'car'; body: AsyncIterable<Uint8Array>; cancel: () => void }
  | { kind: 'absent' }
  /** It does not answer CARs (406, 400, 501 or another media type): blocks only, from now on. */
  | { kind: 'no-car' }
  | { kind: 'busy' }
  | { kind: 'failed'; reason: string };

/** A source gave up on: it sent nothing for too long. */
class SourceTimeoutError extends Error {
  override readonly name = 'SourceTimeoutError';
}

/**
 * One trustless gateway (a `--fetch-from` URL, a provider found through routing, a pin's origin): block and
 * CAR requests over Node's fetch, with the response's first byte and every gap in its body timed; a
 * limited number of requests at once; and its {@link SourceHealth}. Blocks are verified here, so no caller
 * ever sees bytes that do not match their CID.
 */
export class GatewaySource {
  readonly health: SourceHealth;
  /** False once it refused a CAR request: only blocks are asked of it. */
  answersCars = true;
  private active = 0;

  constructor(
    readonly url: string,
    private readonly tuning: FetchTuning,
    private readonly maxBlockBytes: number,
    /** Called when a request slot frees up, so waiting fetches look again. */
    private readonly onRelease: () => void = () => undefined,
  ) {
    this.health = new SourceHealth(tuning);
  }

  get inFlight(): number {
    return this.active;
  }

  /** Ready (not waiting, not set aside) with a free request slot. */
  canTake(): boolean {
    return this.active < this.tuning.perSourceConcurrency && this.health.isReady();
  }

  /** Takes a request slot; false when all are in use. Give it back with {@link release}. */
  tryAcquire(): boolean {
    if (this.active >= this.tuning.perSourceConcurrency) return false;
    this.active++;
    return true;
  }

  release(): void {
    this.active--;
    this.onRelease();
  }

  /** `GET /ipfs/{cid}?format=raw`: the block, verified against its CID. */
  async getBlock(cid: CID, signal?: AbortSignal): Promise<BlockAnswer> {
    const opened = await this.open(`${this.url}/ipfs/${cid.toString()}?format=raw`, RAW_BLOCK_TYPE, signal);
    if (opened.kind === 'refused') return this.failure('refused a raw block request');
    if (opened.kind !== 'open') return opened;
    const { response, body, cancel } = opened;
    if (!mediaTypeIs(response, RAW_BLOCK_TYPE)) {
      cancel();
      return this.failure(`answered ${response.headers.get('content-type') ?? 'no content type'} for a raw block`);
    }
    const declared = Number(response.headers.get('content-length') ?? Number.NaN);
    if (declared > this.maxBlockBytes) {
      cancel();
      return this.failure(`a block of ${declared} bytes is over the ${this.maxBlockBytes}-byte limit`);
    }
    const pieces: Uint8Array[] = [];
    let length = 0;
    try {
      for await (const piece of body) {
        length += piece.byteLength;
        if (length > this.maxBlockBytes) {
          cancel();
          return this.failure(`a block over the ${this.maxBlockBytes}-byte limit`);
        }
        pieces.push(piece);
      }
    } catch (error) {
      signal?.throwIfAborted();
      return this.failure(reasonOf(error));
    }
    const bytes = pieces.length === 1 ? (pieces[0] as Uint8Array) : Buffer.concat(pieces, length);
    try {
      verifyBlock(cid, bytes);
    } catch (error) {
      this.health.misbehaved();
      return { kind: 'wrong', reason: reasonOf(error) };
    }
    this.health.succeeded();
    return { kind: 'block', bytes };
  }

  /**
   * `GET /ipfs/{cid}?format=car&dag-scope=all`, depth-first without duplicates: the body, unparsed and
   * unverified (the caller reads it section by section and verifies every block against the DAG).
   */
  async getCar(cid: CID, signal?: AbortSignal): Promise<CarAnswer> {
    const opened = await this.open(`${this.url}/ipfs/${cid.toString()}?format=car&dag-scope=all`, CAR_ACCEPT, signal, true);
    if (opened.kind === 'refused') {
      this.answersCars = false;
      return { kind: 'no-car' };
    }
    if (opened.kind !== 'open') return opened;
    if (!mediaTypeIs(opened.response, CAR_TYPE)) {
      opened.cancel();
      this.answersCars = false;
      return { kind: 'no-car' };
    }
    return { kind: 'car', body: opened.body, cancel: opened.cancel };
  }

  private failure(reason: string): { kind: 'failed'; reason: string } {
    this.health.failed();
    return { kind: 'failed', reason };
  }

  /** Sends the request and reads its status; a 200's body comes back as timed pieces. */
  private async open(
    url: string,
    accept: string,
    signal: AbortSignal | undefined,
    carRequest = false,
  ): Promise<
    | { kind: 'open'; response: Response; body: AsyncGenerator<Uint8Array, void, undefined>; cancel: () => void }
    | { kind: 'absent' }
    | { kind: 'busy' }
    | { kind: 'refused' }
    | { kind: 'failed'; reason: string }
  > {
    signal?.throwIfAborted();
    const controller = new AbortController();
    const forward = (): void => controller.abort(signal?.reason);
    signal?.addEventListener('abort', forward, { once: true });
    const detach = (): void => signal?.removeEventListener('abort', forward);
    const timer = setTimeout(
      () => controller.abort(new SourceTimeoutError(`no answer within ${this.tuning.firstByteTimeoutMs} ms`)),
      this.tuning.firstByteTimeoutMs,
    );
    let response: Response;
    try {
      response = await fetch(url, { headers: { accept }, signal: controller.signal });
    } catch (error) {
      detach();
      signal?.throwIfAborted();
      return this.failure(reasonOf(controller.signal.aborted ? controller.signal.reason : error));
    } finally {
      clearTimeout(timer);
    }
    if (response.status === 200 && response.body !== null) {
      const reader = response.body.getReader();
      // Ends the request whether or not the body was read: aborting frees the connection, detaching the caller's signal.
      const cancel = (): void => {
        controller.abort();
        detach();
      };
      return { kind: 'open', response, body: timedBody(reader, controller, this.tuning.idleTimeoutMs, cancel), cancel };
    }
    // The body of an error answer is not needed: drop it so the connection is freed.
    await response.body?.cancel().catch(() => undefined);
    detach();
    const status = response.status;
    if (status === 404 || status === 410 || status === 451) return { kind: 'absent' };
    if (status === 429 || status === 503) {
      this.health.busy(retryAfterMs(response.headers.get('retry-after'), Date.now()) ?? this.tuning.defaultRetryAfterMs);
      return { kind: 'busy' };
    }
    if (carRequest && (status === 400 || status === 406 || status === 501)) return { kind: 'refused' };
    return this.failure(`HTTP ${status}`);
  }
}

/**
 * The body's pieces, each waited for at most `idleMs`: a source that stalls mid-answer is cut off rather
 * than holding the fetch. Leaving the iteration (done, thrown or returned early) ends the request.
 */
async function* timedBody(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  controller: AbortController,
  idleMs: number,
  cancel: () => void,
): AsyncGenerator<Uint8Array, void, undefined> {
  try {
    for (;;) {
      const timer = setTimeout(() => controller.abort(new SourceTimeoutError(`nothing received for ${idleMs} ms`)), idleMs);
      let next: Awaited<ReturnType<typeof reader.read>>;
      try {
        next = await reader.read();
      } catch (error) {
        throw controller.signal.aborted && controller.signal.reason instanceof SourceTimeoutError ? controller.signal.reason : error;
      } finally {
        clearTimeout(timer);
      }
      if (next.done) return;
      yield next.value;
    }
  } finally {
    cancel();
  }
}

function mediaTypeIs(response: Response, type: string): boolean {
  return (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() === type;
}

function reasonOf(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as Error & { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message}: ${cause.message}` : error.message;
  }
  return String(error);
}
