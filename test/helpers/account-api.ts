import { spawn } from 'node:child_process';
import { onTerminal, terminalText } from './terminal.js';
import { fileURLToPath } from 'node:url';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import type { CreatedAccessKey, ErrorEnvelope, Permission } from '../../shared/api-types.js';
import type { ErrorCode } from '../../shared/error-codes.js';
import { openDatabase } from '../../main/store/db/database.js';
import type { AccountRow, LedgerRow } from '../../main/store/repositories/accounts.js';
import { expect } from 'vitest';
import { suiteDatabase } from './suite-database.js';
import { withServerStore } from './suite-metadata.js';
import { expectFailureEnvelope } from './error-envelope.js';
import { call, type CallResult, type TestServer } from './test-server.js';

/** Asserting helpers for the account side's integration tests. */

export async function createKey(
  server: { url: string },
  as: Pick<CreatedAccessKey, 'access_key' | 'access_secret'>,
  name: string,
  permissions: Permission[],
): Promise<CreatedAccessKey> {
  const response = await call<{ code: number; data: CreatedAccessKey }>(server, 'POST', '/api/v0/key', { key: as, body: { name, permissions } });
  if (response.status !== 200) throw new Error(`key create failed: ${response.status} ${response.text}`);
  return response.json.data;
}

export async function createUser(server: { url: string }, partner: CreatedAccessKey, uuid: string, email = `${uuid}@example.com`): Promise<void> {
  const response = await call(server, 'POST', '/api/v0/partner/user/create', { key: partner, body: { uuid, name: `user ${uuid}`, email } });
  if (response.status !== 200) throw new Error(`user create failed: ${response.status} ${response.text}`);
}

export async function createUserKey(
  server: { url: string },
  partner: CreatedAccessKey,
  uuid: string,
  name: string,
  permissions: Permission[],
): Promise<CreatedAccessKey> {
  const response = await call<{ data: CreatedAccessKey }>(server, 'POST', '/api/v0/partner/user/key', {
    key: partner,
    body: { uuid, name, permissions },
  });
  if (response.status !== 200) throw new Error(`user key create failed: ${response.status} ${response.text}`);
  return response.json.data;
}

/** Reads the data folder's SQLite file beside the running server (WAL lets readers in): SQLite-only tests. */
export function readDb<T>(server: Pick<TestServer, 'dataDir'>, fn: (db: ReturnType<typeof openDatabase>) => T): T {
  const db = openDatabase(join(server.dataDir, 'pinfold.db'), { readonly: true });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

export async function accountOf(server: Pick<TestServer, 'dataDir'>, uuid: string): Promise<AccountRow> {
  const row = await withServerStore(server, (store) => store.accounts.accountByUuid(uuid));
  if (!row) throw new Error(`no account ${uuid}`);
  return row;
}

export async function ownerAccountRow(server: Pick<TestServer, 'dataDir'>): Promise<AccountRow> {
  const row = await withServerStore(server, (store) => store.accounts.ownerAccount());
  if (!row) throw new Error('no owner');
  return row;
}

export async function ledgerOfUuid(server: Pick<TestServer, 'dataDir'>, uuid: string): Promise<LedgerRow[]> {
  return withServerStore(server, async (store) => {
    const account = await store.accounts.accountByUuid(uuid);
    if (!account) throw new Error(`no account ${uuid}`);
    return store.accounts.ledgerOf(account.id);
  });
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** node:http, because fetch forbids setting Host. */
export function rawRequest(url: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<RawResponse> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method,
        path,
        headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/**
 * Contract section 3: HTTP status = code, body {code, msg, error} (error-envelope.ts), JSON content type, msg
 * naming the parameter; `error`, when given, is the stable string expected. Returns the envelope.
 */
export function expectError(response: CallResult, status: number, msg: RegExp, error?: ErrorCode): ErrorEnvelope {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(response.json).not.toBeNull();
  const envelope = expectFailureEnvelope(response.json, status, error);
  expect(envelope.msg).toMatch(msg);
  return envelope;
}

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/**
 * `pinfold account <args>` on a data folder's accounts: its SQLite file, or with the suite on PostgreSQL
 * the folder's database, named with `--db` as an operator of that mode names it.
 */
export async function accountCli(server: Pick<TestServer, 'dataDir'>, args: string[]): Promise<CliResult> {
  const { database } = await suiteDatabase(server.dataDir);
  return runCli(['account', ...args, '--data', server.dataDir, ...(database ? ['--db', database.url] : [])]);
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `pinfold <args>` from source (no build needed), to completion. `terminal`: its output on a
 * terminal (test/helpers/terminal.ts, Linux only), where stdout and stderr arrive as one, in `stdout`.
 */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}, options: { terminal?: boolean } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const argv = [process.execPath, '--import', 'tsx', 'main/cli/main.ts', ...args];
    const { command, args: commandArgs } = options.terminal ? onTerminal(argv) : { command: process.execPath, args: argv.slice(1) };
    const child = spawn(command, commandArgs, {
      cwd: repoRoot,
      env: { ...process.env, ...env },
      stdio: 'pipe',
    });
    // A terminal's program reads from it: `script` keeps an open pipe; anything else gets no input.
    if (!options.terminal) child.stdin.end();
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += options.terminal ? terminalText(chunk.toString('utf8')) : chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
