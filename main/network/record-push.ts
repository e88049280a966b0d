import { linkedSignal } from '../base/linked-signal.js';
import { IPNS_RECORD_TYPE, MAX_RECORD_BYTES, readBounded } from './name-records.js';

/**
 * The client side of a Pinfold gateway's long-poll of a name's record (the server's side and the protocol:
 * main/http/gateway/record-wait.ts): asks `source` for a record of `name` newer than `sequence`, letting it
 * hold the request up to `waitSeconds`. Bytes are unverified: the names domain verifies them.
 */
export type PushAnswer =
  /** A record (the source's newest; it may be no newer than `sequence` when the source does not push). */
  | { kind: 'record'; bytes: Uint8Array; push: boolean }
  /** The wait ended with no newer record (only a pushing source answers this). */
  | { kind: 'unchanged'; push: true }
  /** No record: the source has none, failed, or answered something else. */
  | { kind: 'none'; push: boolean; reason: string };

/** Headroom over the wait for the answer to arrive. */
const ANSWER_GRACE_MS = 15_000;

export async function waitForRecord(source: string, name: string, sequence: bigint, waitSeconds: number, signal: AbortSignal): Promise<PushAnswer> {
  // Not AbortSignal.any with AbortSignal.timeout: a composite held weakly may be collected mid-wait (base/linked-signal.ts).
  const linked = linkedSignal([signal], waitSeconds * 1000 + ANSWER_GRACE_MS);
  try {
    return await askOnce(source, name, sequence, waitSeconds, signal, linked.signal);
  } finally {
    linked.dispose();
  }
}

async function askOnce(source: string, name: string, sequence: bigint, waitSeconds: number, signal: AbortSignal, ends: AbortSignal): Promise<PushAnswer> {
  let response: Response;
  try {
    response = await fetch(`${source}/ipns/${name}?format=ipns-record`, {
      headers: { accept: IPNS_RECORD_TYPE, 'x-pinfold-wait': String(waitSeconds), 'x-pinfold-seq': sequence.toString() },
      signal: ends,
      // A gateway that answers the name under another spelling redirects: followed, as any client would.
      redirect: 'follow',
    });
  } catch (error) {
    signal.throwIfAborted();
    return { kind: 'none', push: false, reason: error instanceof Error ? error.message : String(error) };
  }
  const push = response.headers.get('x-pinfold-push') === '1';
  if (response.status === 304 && push) return { kind: 'unchanged', push };
  if (response.status !== 200 || !(response.headers.get('content-type') ?? '').includes(IPNS_RECORD_TYPE)) {
    await response.body?.cancel().catch(() => undefined);
    return { kind: 'none', push, reason: `HTTP ${response.status}` };
  }
  try {
    const bytes = await readBounded(response, MAX_RECORD_BYTES);
    return bytes === null ? { kind: 'none', push, reason: 'the answer is larger than a record' } : { kind: 'record', bytes, push };
  } catch (error) {
    signal.throwIfAborted();
    return { kind: 'none', push, reason: error instanceof Error ? error.message : String(error) };
  }
}
