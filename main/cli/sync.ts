import { resolve } from 'node:path';
import { commandSpecOf, dataDirFlag, UsageError, type ParsedArgs } from './args.js';
import { CliFailure, ownerRequest as request } from './server-client.js';
import type { SyncRestoreResult, SyncVersion, SyncVersionDiff } from '../../shared/api-types.js';
import type { SyncAddResult, SyncStatusView } from '../sync/sync-service.js';
import { followLines, syncDiscard, syncFollow } from './sync-follow.js';

/**
 * `pinfold sync add|follow|list|pause|resume|rm|publish|discard|versions|diff|keep|restore`: a client of the running server's sync API (contract
 * section 9); the flags each takes are declared in command-specs.ts. The server's address comes from `<data>/server.json`, the owner's admin key from
 * PINFOLD_OWNER_KEY/PINFOLD_OWNER_SECRET or `<data>/owner-key.json`.
 */

/** Versions asked for at once; a longer history is paged through the API (`limit`/`start`). */
const VERSIONS_SHOWN = '1000';

function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${bytes} B` : `${value.toFixed(1)} ${units[unit]}`;
}

function formatRow(row: SyncStatusView): string {
  const lines = [`${row.id}  ${row.state}  ${row.path}`];
  lines.push(`  files ${row.files}, ${formatBytes(row.bytes)}; pending ${row.pending}`);
  if (row.state === 'syncing' || row.current_file !== '') {
    lines.push(
      `  progress ${row.files_done} files, ${formatBytes(row.bytes_done)} done, ${formatBytes(row.bytes_pending)} to go${row.current_file ? `; now ${row.current_file}` : ''}`,
    );
  }
  lines.push(`  root ${row.root || '-'}`);
  if (row.mode === 'follow') lines.push(...followLines(row));
  else lines.push(`  ipns ${row.ipns_name || '-'}`);
  lines.push(`  last synced ${row.last_synced_at > 0 ? new Date(row.last_synced_at * 1000).toISOString() : 'never'}`);
  if (row.error !== '') lines.push(`  error ${row.error}`);
  if (row.conflict !== null) {
    const seen = row.conflict;
    lines.push(
      `  conflict: a newer record of its name (sequence ${seen.seq}, ${seen.value}) was seen at ${seen.source}; not publishing (sync publish ${row.id} --force)`,
    );
  }
  return lines.join('\n');
}

function formatVersion(version: SyncVersion): string {
  const changes = `+${version.added} ~${version.modified} -${version.removed}, ${formatBytes(version.bytes)}`;
  return `${new Date(version.created_at * 1000).toISOString()}  ${version.root}  ${changes}`;
}

export async function syncCommand(args: ParsedArgs): Promise<number> {
  const [sub, ...rest] = args.positional;
  // Its flags were checked against it by the dispatcher (run.ts); an unknown subcommand is a usage error here too.
  commandSpecOf(['sync', ...args.positional.slice(0, 1)]);
  const dataDir = dataDirFlag(args);
  try {
    switch (sub) {
      case 'add': {
        const [folder, ...extra] = rest;
        if (!folder || extra.length > 0) throw new UsageError('sync add <path> [--no-ipns] [--name NAME] [--ignore PATTERN]... [--keep POLICY]');
        const body = {
          path: resolve(folder),
          ipns: !args.flags.has('no-ipns'),
          ...(args.flags.has('name') ? { ipns_name: args.flags.get('name')?.at(-1) } : {}),
          ...(args.flags.has('ignore') ? { ignore: args.flags.get('ignore') } : {}),
          ...(args.flags.has('keep') ? { keep: args.flags.get('keep')?.at(-1) } : {}),
        };
        process.stdout.write(`syncing ${body.path} (answers once the first scan is pinned)...\n`);
        const { data } = await request<SyncAddResult>(dataDir, 'POST', '/api/v0/sync/add', {}, body);
        if (!data) throw new CliFailure('the server answered without data');
        process.stdout.write(`id ${data.id}\nroot ${data.root}\nipns ${data.ipns_name || '-'}\n`);
        return 0;
      }
      case 'follow':
        return await syncFollow(dataDir, args, rest);
      case 'discard':
        return await syncDiscard(dataDir, rest);
      case 'list': {
        if (rest.length > 0) throw new UsageError('sync list takes no arguments');
        const { data = [] } = await request<SyncStatusView[]>(dataDir, 'GET', '/api/v0/sync', {});
        if (args.flags.has('json')) process.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
        else process.stdout.write(data.length === 0 ? 'no sync folders\n' : `${data.map(formatRow).join('\n\n')}\n`);
        return 0;
      }
      case 'publish': {
        const [id, ...extra] = rest;
        if (!id || extra.length > 0) throw new UsageError('sync publish <id> [--force]');
        const { data } = await request<SyncStatusView>(dataDir, 'POST', '/api/v0/sync/publish', { id, ...(args.flags.has('force') ? { force: 'true' } : {}) });
        process.stdout.write(`${id} published${data ? ` ${data.root} to ${data.ipns_name}` : ''}\n`);
        return 0;
      }
      case 'versions': {
        const [id, ...extra] = rest;
        if (!id || extra.length > 0) throw new UsageError('sync versions <id> [--json]');
        const { data = [] } = await request<SyncVersion[]>(dataDir, 'GET', '/api/v0/sync/versions', { id, limit: VERSIONS_SHOWN });
        if (args.flags.has('json')) process.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
        else process.stdout.write(data.length === 0 ? 'no versions\n' : `${data.map(formatVersion).join('\n')}\n`);
        return 0;
      }
      case 'diff': {
        const [id, from, to, ...extra] = rest;
        if (!id || !from || !to || extra.length > 0) throw new UsageError('sync diff <id> <from> <to>');
        const { data } = await request<SyncVersionDiff>(dataDir, 'GET', '/api/v0/sync/diff', { id, from, to });
        if (!data) throw new CliFailure('the server answered without data');
        const lines = [...data.added.map((p) => `A ${p}`), ...data.modified.map((p) => `M ${p}`), ...data.removed.map((p) => `D ${p}`)];
        process.stdout.write(lines.length === 0 ? 'no changes\n' : `${lines.join('\n')}\n`);
        return 0;
      }
      case 'restore': {
        const [id, root, target, ...extra] = rest;
        if (!id || !root || target === undefined || extra.length > 0) throw new UsageError('sync restore <id> <root> <path> [--to DIR] [--overwrite]');
        const to = args.flags.get('to')?.at(-1);
        const query = {
          id,
          root,
          path: target === '.' ? '' : target,
          ...(to === undefined ? {} : { to: resolve(to) }),
          ...(args.flags.has('overwrite') ? { overwrite: 'true' } : {}),
        };
        const { data } = await request<SyncRestoreResult>(dataDir, 'POST', '/api/v0/sync/restore', query);
        if (!data) throw new CliFailure('the server answered without data');
        const lines = data.written.map((entry) => `${entry.replaced ? 'replaced' : entry.beside ? 'beside  ' : 'restored'} ${entry.local}`);
        lines.push(`${data.written.length} written, ${data.unchanged} already as in the version`);
        process.stdout.write(`${lines.join('\n')}\n`);
        return 0;
      }
      case 'keep': {
        const [id, policy, ...extra] = rest;
        if (!id || !policy || extra.length > 0) throw new UsageError('sync keep <id> <all|none|tiers like 24h:all,30d:1d,1y:1w>');
        const { data } = await request<{ keep: string }>(dataDir, 'POST', '/api/v0/sync/retention', { id }, { keep: policy });
        process.stdout.write(`${id} keeps ${data?.keep ?? policy}\n`);
        return 0;
      }
      default: {
        const [id, ...extra] = rest;
        if (!id || extra.length > 0) throw new UsageError(`sync ${sub} <id>`);
        await request(dataDir, 'POST', `/api/v0/sync/${sub}`, { id });
        process.stdout.write(`${id} ${sub === 'rm' ? 'removed (nothing unpinned)' : sub === 'pause' ? 'paused' : 'resumed'}\n`);
        return 0;
      }
    }
  } catch (error) {
    if (!(error instanceof CliFailure)) throw error;
    process.stderr.write(`pinfold: ${error.message}\n`);
    return 1;
  }
}
