import { isRunProof, newRunNonce } from '../base/run-proof.js';

/** Whether the service at a URL proved it is the process started with our run token, and if not, why. */
export type ServiceProof = { proved: true } | { proved: false; reason: string };

export interface ProveServiceInit {
  fetch?: typeof fetch;
  /** A fresh nonce per call (tests pass their own to check that an old answer is refused). */
  nonce?: () => string;
  timeoutMs?: number;
}

/** A proof answer is a small envelope; whatever answers with more is not our service. */
const MAX_ANSWER_BYTES = 4096;

/**
 * Asks whatever answers at `url` for the proof of a fresh nonce (GET /api/v0/service/proof) and checks
 * it against the run token the service process was started with (base/run-proof.ts). Nothing secret is
 * sent: no key, no token, only the nonce; redirects are not followed.
 */
export async function proveService(url: string, runToken: string, init: ProveServiceInit = {}): Promise<ServiceProof> {
  const fetchFn = init.fetch ?? fetch;
  const nonce = (init.nonce ?? newRunNonce)();
  let answer: unknown;
  try {
    const response = await fetchFn(`${url}/api/v0/service/proof?nonce=${nonce}`, {
      headers: { Accept: 'application/json' },
      redirect: 'error',
      signal: AbortSignal.timeout(init.timeoutMs ?? 15_000),
    });
    const text = await readCapped(response);
    if (response.status !== 200) return { proved: false, reason: `the proof was answered with HTTP ${response.status}` };
    if (text === null) return { proved: false, reason: 'the proof answer was too long' };
    answer = (JSON.parse(text) as { data?: { proof?: unknown } } | null)?.data?.proof;
  } catch (error) {
    return { proved: false, reason: `no proof: ${error instanceof Error ? error.message : String(error)}` };
  }
  return isRunProof(runToken, nonce, answer) ? { proved: true } : { proved: false, reason: 'the proof does not match this run' };
}

/** The body as text, or null when it is longer than MAX_ANSWER_BYTES (the rest is not read). */
async function readCapped(response: Response): Promise<string | null> {
  if (response.body === null) return '';
  const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
