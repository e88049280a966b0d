/** Wire types of the HTTP API (service-spec.md + contract.md). Shared by main and renderer. */
import type { ErrorCode } from './error-codes.js';
import type { UnixfsProfileName } from './unixfs-profiles.js';

export type Permission = 'admin' | 'read' | 'write' | 'pin' | 'unpin';
export const PERMISSIONS: readonly Permission[] = ['admin', 'read', 'write', 'pin', 'unpin'];

export interface Envelope<T = undefined> {
  code: number;
  msg: string;
  data?: T;
}

export interface ListEnvelope<T> {
  code: number;
  data: T[];
  total: number;
}

/** A failure (contract section 3; docs/errors.md): `code` is the HTTP status, `error` the stable string to switch on. */
export interface ErrorEnvelope {
  code: number;
  msg: string;
  error: ErrorCode;
  /** With `bad_input` or `conflict`, where the service can name it: the request parameter at fault. */
  param?: string;
  /** With `plan_limit`: the counter whose limit would be passed (pinned_count, pinned_bytes, ingress, egress, ipns). */
  limit?: string;
}

export interface PartnerUserUsage {
  name: string;
  provider: string;
  email: string;
  email_verified: boolean;
  plan: string;
  next_plan: string;
  next_bill_at: number;
  pinned_count: number;
  pinned_count_limit: number;
  pinned_bytes: number;
  pinned_bytes_limit: number;
  ingress: number;
  ingress_limit: number;
  egress: number;
  egress_limit: number;
  ipns: number;
  ipns_limit: number;
}

/** A row of `GET /api/v0/partner/users` (extension): a user this partner created, newest first. */
export interface PartnerUserSummary {
  uuid: string;
  name: string;
  /** The plan's name, as in the user's stats. */
  plan: string;
  created_at: number;
  pinned_bytes: number;
  pinned_count: number;
}

export interface AccountUsage extends PartnerUserUsage {
  eth_addr: string;
  token_amount: string;
}

export interface Plan {
  id: number;
  name: string;
  price: string;
  pinned_count_limit: number;
  pinned_bytes_limit: number;
  ingress_limit: number;
  egress_limit: number;
  ipns_limit: number;
}

export interface AccessKeyListing {
  name: string;
  access_key: string;
  permissions: Permission[];
}

export interface CreatedAccessKey {
  access_key: string;
  access_secret: string;
}

/**
 * The answer of `POST /api/v0/key` and of a partner's `POST /api/v0/partner/user/key` (extension): the new key
 * with its secret (shown this once) and the key's Pinning Service API token, `<access_key>.<access_secret>`,
 * for `Authorization: Bearer` at `/psa` (contract section 11).
 */
export interface NewAccessKey extends CreatedAccessKey {
  psa_token: string;
}

/**
 * A row of `GET /api/v0/keys`: the spec's listing plus the Pinfold extension `session` (a browser
 * session's key, made by a sign-in code) and, for a session key only, `expires_at` (Unix seconds).
 */
export type AccessKeyView = AccessKeyListing &
  ({ session: false } | { session: true; expires_at: number }) & {
    /**
     * Present (true) on the owner key: the admin key this service keeps in the data folder's home
     * (owner-key.json or the OS keychain), which the CLI beside the app and scripts read.
     */
    owner?: true;
  };

/** `POST /api/v0/session/code`: a one-time sign-in code for the owner, and the page that redeems it. */
export interface SignInCode {
  code: string;
  /** `<listen url>/signin?code=<code>` */
  url: string;
  /** Unix seconds; the code is refused from then on. */
  expires_at: number;
}

/**
 * `POST /api/v0/session/handoff` (owner): a one-time sign-in code written into a page only this user can
 * read, for a browser opener to be handed the page's path instead of the code (no code in any command line).
 */
export interface SignInHandoff {
  /** The page's absolute path on the service's machine; deleted once the code is used or expires. */
  path: string;
  /** Unix seconds; the code is refused (and the page gone) from then on. */
  expires_at: number;
}

/** `DELETE /api/v0/session/all` (owner): how many browser sessions were revoked. */
export interface SessionsRevoked {
  revoked: number;
}

/** `POST /api/v0/session?code=`: the session key the code was exchanged for (admin, the owner's). */
export interface SessionKey {
  access_key: string;
  access_secret: string;
  /** Unix seconds; the key is refused (401 "session expired") from then on. */
  expires_at: number;
  /** The key's name in `GET /api/v0/keys`, e.g. `Browser session 2026-11-25 14:03 UTC`. */
  name: string;
}

export type PinStatus = 'pinning' | 'pinned' | 'failure' | 'unpinning';
export const PIN_STATUSES: readonly PinStatus[] = ['pinning', 'pinned', 'failure', 'unpinning'];

/** A `pinning` pin's fetch from the network (contract section 11), while one runs. */
export interface PinFetchProgress {
  /** Blocks received so far (verified and stored) by this run of the fetch. */
  blocks: number;
  /** Their bytes. */
  bytes: number;
  /** URL of the source that sent the last block; null until a source has answered (the PSA's `queued`). */
  source: string | null;
}

export interface PinRecord {
  name: string;
  cid: string;
  status: PinStatus;
  size: number;
  created_at: number;
  /** Present while the pin's blocks are being fetched from the network. */
  fetch?: PinFetchProgress;
}

/**
 * `GET /api/v0/pin`: the spec's list, and the Pinfold extension cursors: `next` (give it as `after=` for
 * the page after this one) and `prev` (as `before=` for the page before), present when there is one.
 */
export interface PinListEnvelope extends ListEnvelope<PinRecord> {
  next?: string;
  prev?: string;
}

export interface IpnsRecordView {
  name: string;
  value: string;
  alias: string;
  created_at: number;
  publish_at: number;
  /**
   * Its records are also put on the IPFS network, through the routing endpoints (contract section 11,
   * `name/public`): anyone can then resolve the name, and learn the content root it points at.
   */
  public: boolean;
}

/** The answer of `name/create`, `name/publish` and `name/import`: the name and the value it now points at. */
export interface NameBinding {
  name: string;
  value: string;
}

export type SyncState = 'scanning' | 'syncing' | 'idle' | 'paused' | 'error';
export const SYNC_STATES: readonly SyncState[] = ['scanning', 'syncing', 'idle', 'paused', 'error'];

/**
 * What every sync folder leaves out before its own patterns and `.pinfoldignore` files (contract section 9):
 * system junk and partial downloads, so half-fetched files never sync. The service applies them; the window
 * shows them.
 */
export const SYNC_DEFAULT_IGNORES: readonly string[] = ['.DS_Store', 'Thumbs.db', 'desktop.ini', '*.tmp', '*.part', '*.crdownload', '~$*', '.~lock.*'];

/** A file or folder of a sync folder that cannot be read, and why. */
export interface SyncUnreadable {
  /** Relative to the folder, `/`-separated. */
  path: string;
  reason: string;
}

/**
 * A row of `GET /api/v0/sync`: the contract's fields (section 9), then the progress of the batch in
 * flight (zero and '' when none) and what cannot be read.
 */
export interface SyncFolderView {
  id: string;
  path: string;
  root: string;
  ipns_name: string;
  state: SyncState;
  files: number;
  bytes: number;
  pending: number;
  last_synced_at: number;
  error: string;
  current_file: string;
  files_done: number;
  bytes_done: number;
  bytes_pending: number;
  unreadable: SyncUnreadable[];
  /** The folder's own ignore patterns (given at sync/add or sync/ignore; `.pinfoldignore` files come on top). */
  ignore: string[];
  /** Unix seconds the folder was added. */
  created_at: number;
  /** The folder's IPNS name is public (contract section 11): its records go to the IPFS network. False without a name. */
  public: boolean;
  /**
   * Bytes only the folder's history holds: for each kept version but the current one, the bytes of its
   * blocks the next newer kept version no longer has (what retention would free), summed.
   */
  history_bytes: number;
  /**
   * A record of the folder's IPNS name published elsewhere (the same key on another machine) that is newer than
   * the folder's own (contract section 11), or null. While there is one, the folder keeps syncing (versions
   * made, pinned and kept) but publishes nothing, until the user publishes over it (`sync/publish?force=true`)
   * or follows the other machine instead.
   */
  conflict: SyncConflict | null;
  /** 'sync' publishes the folder; 'follow' mirrors another machine's IPNS name into it, read-only (contract section 11). */
  mode: SyncFolderMode;
  /**
   * A followed folder's source as the user gave it, normalized: `<gateway>/ipns/<k51…>` when it was given as a
   * gateway URL, else `/ipns/<k51…>` ('' for a sync folder). `ipns_name` is the followed name, `root` the version held.
   */
  source: string;
  /** A followed folder's extra gateways, asked besides the network settings' sources (the URL's gateway first, then `from`). */
  from: string[];
  /** The sequence of the followed name's record whose version the folder holds (0 before the first copy, and for a sync folder). */
  seq: number;
  /** Unix seconds of a followed folder's last look for a newer record (0 before the first, and for a sync folder). */
  checked_at: number;
  /** Where a followed folder differs from the version it holds: never overwritten; the incoming files written beside. */
  local_changes: SyncLocalChange[];
}

export type SyncFolderMode = 'sync' | 'follow';

/** A local change in a followed folder (a file changed, added or deleted on this machine). */
export interface SyncLocalChange {
  /** Relative to the folder, `/`-separated. */
  path: string;
  change: 'modified' | 'added' | 'deleted';
  /** The incoming versions written beside it (`name (from <source>, YYYY-MM-DD HHMM).ext`), relative to the folder. */
  beside: string[];
}

/** `POST /api/v0/sync/follow`'s JSON body (contract section 11); the answer is the folder's row. */
export interface SyncFollowRequest {
  /** `k51…`/`12D3KooW…`, `/ipns/<name>`, or a gateway URL ending in `/ipns/<name>` (its gateway then an extra source). */
  name: string;
  /** An absolute folder path on the service's machine: new, empty, or holding files to keep (never overwritten). */
  path: string;
  /** Extra gateway URLs to ask for the name's records and blocks. */
  from?: string[];
}

/** `POST /api/v0/sync/discard?id=`: the followed version written over the local changes (moved to the trash first). */
export interface SyncDiscardResult {
  /** Files of the version written. */
  written: number;
  /** Local files (and copies beside them) moved to the trash. */
  trashed: number;
  /** What still differs afterwards. */
  local_changes: SyncLocalChange[];
}

/** A newer record of a sync folder's name, seen elsewhere. */
export interface SyncConflict {
  /** Its sequence: above (or equal to, with other content) the folder's own record's. */
  seq: number;
  /** The CID it points at (or its value as signed, when that is not a plain `/ipfs/<cid>`). */
  value: string;
  /** Unix seconds it was first seen. */
  seen_at: number;
  /** Where: the routing endpoint's or fetch source's URL, or `pushed` (PUT to this gateway's routing API). */
  source: string;
}

/** `POST /api/v0/sync/add`: with `wait=false` it answers at once, `root` and `ipns_name` still '', and `state`. */
export interface SyncAddResult {
  id: string;
  path: string;
  root: string;
  ipns_name: string;
  state?: SyncState;
}

/** A settled batch of a sync folder: the root it made and what it changed (files, and bytes added or modified). */
export interface SyncBatchView {
  root: string;
  /** Unix seconds. */
  finished_at: number;
  added: number;
  modified: number;
  removed: number;
  bytes: number;
}

/** A recent error of a sync folder; `path` is '' for the folder as a whole (a failed batch, a vanished drive). */
export interface SyncErrorView {
  /** Unix seconds. */
  at: number;
  path: string;
  message: string;
}

/** `GET /api/v0/sync/detail?id=`: the folder's row and what its page shows beside it. */
export interface SyncFolderDetail extends SyncFolderView {
  /** The text of `<folder>/.pinfoldignore` (read-only here), or null when there is none. */
  pinfoldignore: string | null;
  /** True when `.pinfoldignore` is longer than the 64 KiB shown. */
  pinfoldignore_truncated: boolean;
  /** The last settled batches, newest first (at most 20). */
  batches: SyncBatchView[];
  /** Recent errors, newest first (kept in the service's memory: a restart starts afresh). */
  errors: SyncErrorView[];
  /** The folder's retention policy as text (`all`, `none` or tiers such as `1d:all,30d:1d,1y:1w`). */
  retention: string;
}

/** `GET /api/v0/sync/versions?id=`: one kept version of a synced folder (newest first, the current root first). */
export interface SyncVersion {
  root: string;
  /** Unix seconds the version was settled. */
  created_at: number;
  /** Files added, modified and removed by the batch that made it. */
  added: number;
  modified: number;
  removed: number;
  /** Bytes of the files it added or modified. */
  bytes: number;
}

/** `GET /api/v0/sync/diff?id=&from=&to=`: paths relative to the folder, `/`-separated, sorted; an empty directory ends in `/`. */
export interface SyncVersionDiff {
  added: string[];
  modified: string[];
  removed: string[];
}

/** `GET /api/v0/sync/tree?id=&root=&path=`: one entry of a directory of a kept version, in the directory's order. */
export interface SyncVersionEntry {
  name: string;
  /** 'other' for what sync never makes (a symlink, a non-UnixFS node). */
  kind: 'file' | 'dir' | 'other';
  /** A file's content bytes; a directory's whole DAG as its parent records it. */
  size: number;
  cid: string;
}

/** `GET /api/v0/sync/tree`: one directory of a kept version. */
export interface SyncVersionDirectory {
  entries: SyncVersionEntry[];
  /** More entries than the service lists at once. */
  truncated: boolean;
}

/** One file or folder `POST /api/v0/sync/restore` wrote. */
export interface SyncRestoredEntry {
  /** Where it is in the version, relative to the folder, `/`-separated ('' for the folder itself). */
  path: string;
  /** The local path written, absolute. */
  local: string;
  kind: 'file' | 'dir';
  /** Written beside different local content, as `name (restored YYYY-MM-DD HHMM).ext`. */
  beside: boolean;
  /** Different local content was replaced (`overwrite=true`). */
  replaced: boolean;
}

/** `POST /api/v0/sync/restore`: what was written, and how many files already held the version's content. */
export interface SyncRestoreResult {
  written: SyncRestoredEntry[];
  unchanged: number;
}

/** `POST /api/v0/sync/retention?id=`: the policy as the service wrote it (`all`, `none` or tiers). */
export interface SyncRetention {
  keep: string;
}

/** `GET /api/v0/service` (the owner's admin keys): facts of the running service for the Settings page. */
export interface ServiceFacts {
  /** Pinfold's version (package.json). */
  version: string;
  /** The data folder, absolute. */
  data_dir: string;
  /** The URL the service listens at, as `pinfold serve` prints it. */
  url: string;
  gc_interval_seconds: number;
  gc_grace_seconds: number;
  /** `unixfs-v1-2025` or `unixfs-v0-2015` (--cid-profile). */
  cid_profile: string;
  /** --public-gateway: /ipfs and /ipns served without credentials. */
  public_gateway: boolean;
  /** Unix seconds the service started. */
  started_at: number;
  /**
   * Whether this instance runs the periodic garbage collection: always with the embedded SQLite; with
   * several instances on one PostgreSQL (`--db`), exactly one leads at a time.
   */
  gc_leader: boolean;
}

/** `POST /api/v0/repo/gc` (the owner's admin keys): what one garbage-collection cycle removed. */
export interface GarbageCollection {
  pins_removed: number;
  blocks_deleted: number;
}

/** One day of `GET /api/v0/stats/daily` (UTC days, oldest first, the last one today). */
export interface DailyUsage {
  /** 'YYYY-MM-DD' */
  day: string;
  /** Bytes received that day (upload payloads). */
  ingress: number;
  /** Bytes sent that day (gateway bodies). */
  egress: number;
  /** Pinned bytes and pins at the end of that day (for today: now). */
  pinned_bytes: number;
  pinned_count: number;
}

/** `event: pin` after a pin left the list (GC removed it, or a refused root pin was taken back). */
export interface PinRemoved {
  cid: string;
  removed: true;
}

/** `event: name` after name/rm. */
export interface NameRemoved {
  name: string;
  removed: true;
}

/** `event: key` after an access key was created (no `removed`) or deleted. Never a secret. */
export interface KeyChange {
  access_key: string;
  removed?: true;
}

/**
 * `event: partner` (to a partner's streams): one of the users it created changed: it was created, its
 * plan changed, it got or lost an access key, or its usage moved. A notice: the window reads what it
 * shows again. At most one a second per user.
 */
export interface PartnerUserChange {
  uuid: string;
}

/** `event: sync` after sync/rm. */
export interface SyncFolderRemoved {
  id: string;
  removed: true;
}

/**
 * The events of `GET /api/v0/events` (server-sent events) by name, with their `data`. An account receives
 * only its own; `sync` only the owner's admin keys. `usage` comes at connect and after changes, at most
 * once a second; `sync` at most 4 times a second per folder.
 */
export interface ServiceEvents {
  usage: AccountUsage;
  pin: PinRecord | PinRemoved;
  name: IpnsRecordView | NameRemoved;
  key: KeyChange;
  sync: SyncFolderView | SyncFolderRemoved;
  partner: PartnerUserChange;
}

export type ServiceEventName = keyof ServiceEvents;
export const SERVICE_EVENT_NAMES: readonly ServiceEventName[] = ['usage', 'pin', 'name', 'key', 'sync', 'partner'];

/** What the client should wait before reconnecting (the stream's `retry:` field), in milliseconds. */
export const EVENT_STREAM_RETRY_MS = 3000;

/** Step 1 of a two-step upload (contract section 4): the signed address step 2 sends the bytes to. */
export interface UploadAddress {
  url: string;
}

/**
 * `GET /api/v0/upload/settings` (extension; any key with `write`): how this service lays out new content,
 * whether its gateway is public, and the caller's account (clients keep per-account state by it).
 */
export interface UploadSettings {
  /** The caller's account uuid. */
  account_uuid: string;
  /** `unixfs-v1-2025` or `unixfs-v0-2015` (--cid-profile): the layout of shared/unixfs-profiles.ts. */
  cid_profile: string;
  /** --public-gateway: /ipfs and /ipns answer without credentials. */
  public_gateway: boolean;
}

/** The network settings as saved (settings.json) or in use (contract section 11). */
export interface NetworkSettingsValues {
  /** Trustless gateways blocks are fetched from (`--fetch-from`). */
  fetch_from: string[];
  /** Delegated Routing V1 endpoints (`--routing`): providers, and IPNS records to read and publish. */
  routing: string[];
  /** `--offline`: no outbound request at all. */
  offline: boolean;
}

/** `GET /api/v0/settings/network`: what is in use now, what is saved, and which values a flag pins for this run. */
export interface NetworkSettingsView extends NetworkSettingsValues {
  saved: NetworkSettingsValues;
  pinned: { fetch_from: boolean; routing: boolean; offline: boolean };
}

/** When a change of a setting takes effect: at once, at the service's next start, or by the desktop app. */
export type SettingApplies = 'now' | 'restart' | 'desktop';

/** The window's theme: `system` follows the OS's light or dark. */
export type ThemeSetting = 'system' | 'light' | 'dark';

/** Every setting of the data folder's settings.json, by its name in the file and the API (docs/settings.md). */
export interface ServiceSettingsValues extends NetworkSettingsValues {
  /** The layout of new content (`--cid-profile`). */
  cid_profile: UnixfsProfileName;
  /** Seconds between periodic garbage collections (`--gc-interval`), 1 or more. */
  gc_interval_seconds: number;
  /** Blocks written within this many seconds survive a collection (`--gc-grace`). */
  gc_grace_seconds: number;
  /** The port the service listens on (`--port`; 0: a free one); applies at the next start. */
  port: number;
  /** /ipfs and /ipns served without credentials (`--public-gateway`); applies at the next start. */
  public_gateway: boolean;
  /** The desktop app starts at login; null until chosen (the app then leaves its login item alone). */
  launch_at_login: boolean | null;
  theme: ThemeSetting;
  /** The owner's window showed its first-run welcome (skipped, or a first step taken); not on the Settings page. */
  welcome_seen: boolean;
}

/** One setting in `GET /api/v0/settings`. */
export interface SettingView<T> {
  /** What this run uses now. */
  value: T;
  /** What settings.json holds, else the default: what the next start uses unless a flag pins it. */
  saved: T;
  default: T;
  /** The command-line flag that pins the value for this run (`--gc-interval`), or null. */
  pinned_by: string | null;
  applies: SettingApplies;
  /** A saved value waits for the next start (`applies: "restart"`, not pinned, differs from the value in use). */
  restart_required: boolean;
}

/** `GET` and `POST /api/v0/settings` (owner): every setting, and whether any waits for a restart. */
export interface SettingsView {
  settings: { [K in keyof ServiceSettingsValues]: SettingView<ServiceSettingsValues[K]> };
  restart_required: boolean;
}

/** The body of `POST /api/v0/settings`: any of the settings, each saved and applied as its `applies` says. */
export type SettingsChange = Partial<ServiceSettingsValues>;

/**
 * `POST /api/v0/upload/cancel?sargs=…&ssig=…` (extension; the upload address alone authorizes it, as it
 * does step 2): an upload cancelled before it committed, or what it stored when it committed first.
 * - `cancelled`: nothing of it is or will be stored or counted (a step 2 that comes later is refused);
 * - `stored`: it committed before the cancel; `roots` are what its step 2 answered (a file's CID, a
 *   directory's new root, a CAR's roots; empty when what followed the commit failed);
 * - `unknown`: this server did not run that step 2 (another instance, or before a restart).
 */
export interface UploadCancelOutcome {
  outcome: 'cancelled' | 'stored' | 'unknown';
  roots: string[];
}
