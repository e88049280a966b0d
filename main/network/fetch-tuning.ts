/**
 * How hard a fetch pushes and how long it waits. The defaults suit public gateways over the internet;
 * tests pass shorter waits (a stall test should not take 30 s).
 */
export interface FetchTuning {
  /** Requests open at once to one source (a CAR request counts as one). */
  perSourceConcurrency: number;
  /** From sending a request to its response's headers (connecting included). */
  firstByteTimeoutMs: number;
  /** The longest gap between two pieces of a response's body: a source that stalls is given up on. */
  idleTimeoutMs: number;
  /** Failures in a row after which a source is set aside. */
  failuresBeforeAside: number;
  /** After a failure, a source waits this long (doubling with each failure in a row, with jitter) before it is asked again. */
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** How long a source that keeps failing is set aside the first time (doubling each time after, up to asideMaxMs). */
  asideMs: number;
  asideMaxMs: number;
  /** How long a source that sent a wrong block, or a block nobody asked for, is set aside. */
  wrongBlockAsideMs: number;
  /** The longest `Retry-After` honoured as such; a longer one sets the source aside for that long instead. */
  maxRetryAfterMs: number;
  /** A 429 or 503 without `Retry-After` waits this long. */
  defaultRetryAfterMs: number;
  /** When no source has what is missing, the fetch tries again after this (doubling, up to roundDelayMaxMs). */
  roundDelayMs: number;
  roundDelayMaxMs: number;
  /** A batch of fetched blocks is committed once it holds this many bytes... */
  batchBytes: number;
  /** ...or this many blocks... */
  batchBlocks: number;
  /** ...or once its first block has waited this long, so a slow fetch still keeps what it got. */
  batchMs: number;
}

export const DEFAULT_FETCH_TUNING: FetchTuning = {
  perSourceConcurrency: 8,
  firstByteTimeoutMs: 30_000,
  idleTimeoutMs: 30_000,
  failuresBeforeAside: 3,
  backoffBaseMs: 500,
  backoffMaxMs: 30_000,
  asideMs: 30_000,
  asideMaxMs: 10 * 60_000,
  wrongBlockAsideMs: 10 * 60_000,
  maxRetryAfterMs: 10 * 60_000,
  defaultRetryAfterMs: 1000,
  roundDelayMs: 1000,
  roundDelayMaxMs: 30_000,
  batchBytes: 8 * 1024 * 1024,
  batchBlocks: 512,
  batchMs: 2000,
};

export function fetchTuning(overrides: Partial<FetchTuning> = {}): FetchTuning {
  return { ...DEFAULT_FETCH_TUNING, ...overrides };
}
