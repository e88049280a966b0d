import { homedir } from 'node:os';
import { join } from 'node:path';
import type { PostgresTarget, S3Target } from './backend-urls.js';

/**
 * Kubo's names for how new content is laid out (IPIP-499; contract section 5): `unixfs-v1-2025` is
 * Pinfold's own default, `unixfs-v0-2015` Kubo's legacy import defaults, which gw3's writable gateway uses.
 */
export const CID_PROFILES = ['unixfs-v1-2025', 'unixfs-v0-2015'] as const;
export type CidProfileName = (typeof CID_PROFILES)[number];

/** Timers cannot wait longer than 2^31-1 ms (about 24.8 days); a longer wait would fire at once. */
export const MAX_TIMER_SECONDS = Math.floor((2 ** 31 - 1) / 1000);

/**
 * Everything `pinfold serve` can be told (contract section 1). The fields marked "a setting's flag" are
 * also settings of the data folder's settings.json (docs/settings.md): given (on the command line, or by
 * an embedder), each wins over the saved value for this run and the settings' view says it is pinned;
 * undefined, the saved value is used, else the default (DEFAULTS).
 */
export interface ServiceConfig {
  dataDir: string;
  host: string;
  /** A setting's flag (`--port`); 0 picks a free port. */
  port?: number;
  /**
   * `--desktop-port N`: the port the desktop app chose for its service (the saved one, or a free one when
   * that is taken, kept across restarts). Listened on when `port` is not given, without pinning the setting.
   */
  desktopPort?: number;
  /** A setting's flag (`--gc-interval`). */
  gcIntervalSeconds?: number;
  /** A setting's flag (`--gc-grace`). */
  gcGraceSeconds?: number;
  tsWindowSeconds: number;
  /** `HOST:PORT` of the DNS server for DNSLink; undefined means the system resolver. */
  dnsResolver: string | undefined;
  /** A setting's flag (`--public-gateway`). */
  publicGateway?: boolean;
  allowOrigins: string[];
  /** How long a `pinning` pin waits for its blocks before it turns `failure`. */
  pinTimeoutSeconds: number;
  /** A setting's flag (`--cid-profile`): the layout of new files and directories (uploads, DAG add/remove, folder operations, sync). */
  cidProfile?: CidProfileName;
  /**
   * The window of a step 2's minimum pace (contract section 4): a step 2 that sends nothing, or fewer than
   * uploadMinBytesPerWindow bytes (or the rest of its body), in a window of this long is cut off with 408.
   */
  uploadIdleTimeoutMs: number;
  /**
   * The least a step 2 must send in each window: small enough that any real network passes (1 KiB in 30 s
   * is 34 bytes a second), large enough that a trickle cannot hold an upload, its reservation and its pack
   * space for days.
   */
  uploadMinBytesPerWindow: number;
  /**
   * `--db postgres://…`: the metadata in PostgreSQL (the scale-out mode, issue "beyond one machine");
   * undefined: the data folder's SQLite file, the default and the desktop's.
   */
  database?: PostgresTarget;
  /**
   * `--blocks s3://…`: the blocks in an S3-compatible bucket (the scale-out mode; needs `--db`, since the
   * block index lives in the shared metadata); undefined: the data folder's pack files.
   */
  blocks?: S3Target;
  /**
   * `--master-key-file PATH` (or `PINFOLD_MASTER_KEY_FILE`), with `--db` only: a 0600 file holding the
   * master key every instance on that database shares, used instead of the data folder's own.
   */
  masterKeyFile?: string;
  /**
   * `--fetch-from URL`…, `--routing URL`…, `--offline` (contract section 11): each one given wins, for this run,
   * over the data folder's settings.json (main/network/settings.ts), which holds the defaults otherwise.
   */
  network?: { fetchFrom?: string[]; routing?: string[]; offline?: boolean };
}

export const DEFAULTS = {
  host: '127.0.0.1',
  port: 5080,
  gcIntervalSeconds: 3600,
  gcGraceSeconds: 600,
  tsWindowSeconds: 300,
  pinTimeoutSeconds: 600,
  cidProfile: 'unixfs-v1-2025',
  uploadIdleTimeoutMs: 30_000,
  uploadMinBytesPerWindow: 1024,
} as const;

/** The OS application-data folder shared by the desktop app and `serve`. */
export function defaultDataDir(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): string {
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Pinfold');
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Pinfold');
  return join(env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'pinfold');
}

export function defaultConfig(overrides: Partial<ServiceConfig> = {}): ServiceConfig {
  return {
    dataDir: defaultDataDir(),
    host: DEFAULTS.host,
    tsWindowSeconds: DEFAULTS.tsWindowSeconds,
    dnsResolver: undefined,
    allowOrigins: [],
    pinTimeoutSeconds: DEFAULTS.pinTimeoutSeconds,
    uploadIdleTimeoutMs: DEFAULTS.uploadIdleTimeoutMs,
    uploadMinBytesPerWindow: DEFAULTS.uploadMinBytesPerWindow,
    ...overrides,
  };
}
