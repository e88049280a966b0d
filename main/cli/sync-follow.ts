import { resolve } from 'node:path';
import type { SyncDiscardResult, SyncFolderView } from '../../shared/api-types.js';
import { UsageError, type ParsedArgs } from './args.js';
import { CliFailure, ownerRequest as request } from './server-client.js';

/**
 * `pinfold sync follow <name> <folder> [--from URL]...` and `pinfold sync discard <id>` (issue 24, contract
 * section 11): clients of the running server's follow API; and what `sync list` shows of a followed folder.
 */

export async function syncFollow(dataDir: string, args: ParsedArgs, rest: readonly string[]): Promise<number> {
  const [name, folder, ...extra] = rest;
  if (!name || !folder || extra.length > 0) throw new UsageError('sync follow <name> <folder> [--from URL]...');
  const from = args.flags.get('from') ?? [];
  const body = { name, path: resolve(folder), ...(from.length > 0 ? { from } : {}) };
  const { data } = await request<SyncFolderView>(dataDir, 'POST', '/api/v0/sync/follow', {}, body);
  if (!data) throw new CliFailure('the server answered without data');
  process.stdout.write(`id ${data.id}\nfollowing ${data.source} into ${data.path} (the first copy runs in the background: pinfold sync list)\n`);
  return 0;
}

export async function syncDiscard(dataDir: string, rest: readonly string[]): Promise<number> {
  const [id, ...extra] = rest;
  if (!id || extra.length > 0) throw new UsageError('sync discard <id>');
  const { data } = await request<SyncDiscardResult>(dataDir, 'POST', '/api/v0/sync/discard', { id });
  if (!data) throw new CliFailure('the server answered without data');
  const left = data.local_changes.length;
  process.stdout.write(
    `${id}: ${data.written} files of the followed version written, ${data.trashed} local files moved to the trash${left > 0 ? `; ${left} still differ` : ''}\n`,
  );
  return 0;
}

/** The lines `sync list` adds for a followed folder: its source, the version held, the last check, local changes. */
export function followLines(row: SyncFolderView): string[] {
  if (row.mode !== 'follow') return [];
  const lines = [`  mode follow, source ${row.source}${row.from.length > 1 ? ` (also from ${row.from.slice(1).join(', ')})` : ''}`];
  lines.push(`  sequence ${row.root === '' ? '-' : row.seq}; last checked ${row.checked_at > 0 ? new Date(row.checked_at * 1000).toISOString() : 'never'}`);
  if (row.local_changes.length > 0) {
    lines.push(`  local changes (kept; pinfold sync discard ${row.id} restores the followed version):`);
    for (const change of row.local_changes) {
      lines.push(`    ${change.change} ${change.path}${change.beside.length > 0 ? `  (incoming beside: ${change.beside.join(', ')})` : ''}`);
    }
  }
  return lines;
}
