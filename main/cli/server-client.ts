import { readServerUrl, ServerFileError } from '../app/server-file.js';
import { systemClock, unixSeconds } from '../base/clock.js';
import { ownerKeyFromEnv, type OwnerKey } from '../accounts/owner-key.js';
import { osKeychainEntry } from '../secrets/keychain-entry.js';
import { locateOwnerKey } from '../secrets/owner-key-locator.js';

/**
 * The commands that talk to a running server as its owner (`pinfold sync ...`, `pinfold open`, `pinfold
 * gc`): the server's address from `<data>/server.json`, the owner's admin key from PINFOLD_OWNER_KEY/SECRET
 * or from where the folder's secrets.json says it lives (owner-key.json or the OS keychain, as the
 * desktop app keeps it), and one authenticated call.
 */

export interface Envelope<T> {
  code: number;
  msg?: string;
  data?: T;
  total?: number;
}

/** A failure the command reports in one line (exit 1), without the usage text. */
export class CliFailure extends Error {}

export async function serverUrl(dataDir: string): Promise<string> {
  try {
    return await readServerUrl(dataDir);
  } catch (error) {
    if (!(error instanceof ServerFileError)) throw error;
    if (error.reason === 'missing') throw new CliFailure(`no running server found (${error.path} is missing); start one with: pinfold serve --data ${dataDir}`);
    throw new CliFailure(error.message);
  }
}

export async function ownerKey(dataDir: string): Promise<OwnerKey> {
  const explicit = ownerKeyFromEnv(process.env);
  if (explicit) return explicit;
  let located: Awaited<ReturnType<typeof locateOwnerKey>>;
  try {
    located = await locateOwnerKey(dataDir, osKeychainEntry);
  } catch (error) {
    throw new CliFailure(`cannot read the owner key of ${dataDir}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!located.key) throw new CliFailure(`no owner key in ${located.where}: set PINFOLD_OWNER_KEY and PINFOLD_OWNER_SECRET`);
  return located.key;
}

export interface OwnerAnswer<T> {
  status: number;
  statusText: string;
  /** The answer's JSON envelope; null when the body is not JSON. */
  envelope: Envelope<T> | null;
}

/**
 * One call to the server at `url` as its owner, with the request time the API wants. Network failures
 * and non-200 answers are the caller's to word: each command says what it was asking for.
 */
export async function ownerCall<T>(
  url: string,
  key: OwnerKey,
  method: string,
  path: string,
  query: Record<string, string>,
  body?: unknown,
): Promise<OwnerAnswer<T>> {
  const params = new URLSearchParams({ ...query, ts: String(unixSeconds(systemClock)) });
  const response = await fetch(`${url}${path}?${params.toString()}`, {
    method,
    headers: {
      'X-Access-Key': key.access_key,
      'X-Access-Secret': key.access_secret,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await response.json().catch(() => null)) as Envelope<T> | null;
  return { status: response.status, statusText: response.statusText, envelope };
}

/** One call to the server holding `dataDir`, as its owner; every failure is a {@link CliFailure}. */
export async function ownerRequest<T>(dataDir: string, method: string, path: string, query: Record<string, string>, body?: unknown): Promise<Envelope<T>> {
  const url = await serverUrl(dataDir);
  const key = await ownerKey(dataDir);
  let answer: OwnerAnswer<T>;
  try {
    answer = await ownerCall<T>(url, key, method, path, query, body);
  } catch {
    throw new CliFailure(`cannot reach the server at ${url}; is pinfold serve running?`);
  }
  const envelope = answer.envelope ?? { code: answer.status, msg: answer.statusText };
  if (answer.status !== 200) throw new CliFailure(`${envelope.msg ?? answer.statusText} (HTTP ${answer.status})`);
  return envelope;
}
