import { rm } from 'node:fs/promises';
import { createApp, type AppInit, type OwnerKey, type PinfoldApp } from '../../main/app/create-app.js';
import type { Clock } from '../../main/base/clock.js';
import { defaultConfig, type ServiceConfig } from '../../main/base/config.js';
import { sign, canonicalStrings } from '../../main/http/signature.js';
import { ownerKeyOf } from './owner-key.js';
import { suiteDatabase } from './suite-database.js';
import { manualClock, type ManualClock } from './manual-clock.js';
import { makeTempDir } from './temp-dirs.js';
import { testConfig } from './test-network.js';

export interface TestServer {
  url: string;
  owner: OwnerKey;
  dataDir: string;
  app: PinfoldApp;
  stop(): Promise<void>;
}

// Here too for the many files that start a server in a folder of their own.
export { makeTempDir } from './temp-dirs.js';

/**
 * A clock a test moves by hand: it starts at the real time and then stands still, so nothing the server
 * decides by time (grace periods, pin deadlines, address expiry) depends on how fast the machine is.
 * Requests still carry the real time as `ts`; keep the server's `--ts-window` wider than the moves.
 */
export function testClock(): ManualClock {
  return manualClock(Date.now());
}

/**
 * A real server on port 0 over a fresh temp data folder (on `clock` when given, else the system clock), its
 * metadata on the suite's engine (PINFOLD_TEST_DB, see suite-database.ts) unless `overrides` names one;
 * offline unless `overrides.network` names local endpoints (test-network.ts). `options` are the test hooks
 * of AppInit (the upload commit gate, shorter fetch waits).
 */
export async function startTestServer(
  overrides: Partial<ServiceConfig> = {},
  env: NodeJS.ProcessEnv = {},
  clock?: Clock,
  options: Pick<AppInit, 'fetchTuning' | 'uploadTestHooks' | 'namePublishing' | 'followTiming'> & {
    /**
     * Take `overrides.network` as the command line would give it (what it leaves out comes from the data
     * folder's settings.json): only for a test that wrote that file with local endpoints first.
     */
    networkAsGiven?: boolean;
  } = {},
): Promise<TestServer> {
  const dataDir = overrides.dataDir ?? (await makeTempDir());
  const engine = 'database' in overrides ? {} : await suiteDatabase(dataDir);
  const { networkAsGiven, ...init } = options;
  const config = networkAsGiven ? defaultConfig({ port: 0, ...engine, ...overrides, dataDir }) : testConfig({ port: 0, ...engine, ...overrides, dataDir });
  const app = await createApp({ config, env, ...(clock ? { clock } : {}), ...init });
  const url = await app.listen();
  return {
    url,
    owner: ownerKeyOf(app),
    dataDir,
    app,
    async stop() {
      await app.close();
      if (!overrides.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export function nowTs(): number {
  return Math.floor(Date.now() / 1000);
}

export interface CallOptions {
  key?: OwnerKey | null;
  /** Authenticate with X-Access-Signature instead of the secret header. */
  signed?: boolean;
  query?: Record<string, string | number | boolean>;
  /** Leave `ts` out of the query. */
  noTs?: boolean;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface CallResult<T = unknown> {
  status: number;
  headers: Headers;
  json: T;
  text: string;
}

/** One API call the way a client of the hosted service makes it: `ts` in the query, two headers. */
export async function call<T = unknown>(server: { url: string }, method: string, path: string, options: CallOptions = {}): Promise<CallResult<T>> {
  const query = new URLSearchParams();
  if (!options.noTs) query.set('ts', String(nowTs()));
  for (const [name, value] of Object.entries(options.query ?? {})) query.set(name, String(value));
  const qs = query.toString();
  const pathAndQuery = qs ? `${path}?${qs}` : path;
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.key) {
    headers['X-Access-Key'] = options.key.access_key;
    if (options.signed) {
      const canonical = canonicalStrings(method, pathAndQuery)[0] as string;
      headers['X-Access-Signature'] = sign(Buffer.from(options.key.access_secret, 'base64url'), canonical);
    } else headers['X-Access-Secret'] = options.key.access_secret;
  }
  let body: string | undefined;
  if (options.body !== undefined) body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  const response = await fetch(`${server.url}${pathAndQuery}`, { method, headers, body });
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  return { status: response.status, headers: response.headers, json: json as T, text };
}
