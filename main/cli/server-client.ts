import { readServerUrl, ServerFileError } from '../base/server-file.js';
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

export async function ownerRequest<T>(dataDir: string, method: string, path: string, query: Record<string, string>, body?: unknown): Promise<Envelope<T>> {
  const url = await serverUrl(dataDir);
  const key = await ownerKey(dataDir);
  const params = new URLSearchParams({ ...query, ts: String(Math.floor(Date.now() / 1000)) });
  let response: Response;
  try {
    response = await fetch(`${url}${path}?${params.toString()}`, {
      method,
      headers: { 'X-Access-Key': key.access_key, 'X-Access-Secret': key.access_secret, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new CliFailure(`cannot reach the server at ${url}; is pinfold serve running?`);
  }
  const envelope = (await response.json().catch(() => ({ code: response.status, msg: response.statusText }))) as Envelope<T>;
  if (response.status !== 200) throw new CliFailure(`${envelope.msg ?? response.statusText} (HTTP ${response.status})`);
  return envelope;
}
