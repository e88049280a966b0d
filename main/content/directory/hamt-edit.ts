import { NotFoundError } from '../../base/errors.js';
import { readShard, shardLink, type ReadContext, type ShardNode, type ShardSlot } from './directory-node.js';
import { fromDirectoryEntry, hashOf, type Entry, type NameKey } from './entries.js';
import { buildShard, writeShard, type ShardResult, type ShardWriteContext } from './hamt-build.js';

export type Change = { kind: 'add'; entry: Entry } | { kind: 'remove'; target: NameKey };

export interface ShardEditContext extends ReadContext {
  pending: ShardWriteContext['pending'];
  shardCache?: ShardWriteContext['shardCache'];
  /** Entries the edit took out (removed or replaced), for the caller's size bookkeeping. */
  displaced: Entry[];
  /** Names the root in messages. */
  what: string;
}

type EditOutcome = { kind: 'empty' } | { kind: 'entry'; entry: Entry } | ({ kind: 'shard' } & ShardResult);

function missing(ctx: ShardEditContext, change: Change & { kind: 'remove' }): NotFoundError {
  return new NotFoundError(`remove: no entry named "${change.target.name}" in directory ${ctx.what}`);
}

function changeName(change: Change): NameKey {
  return change.kind === 'add' ? change.entry : change.target;
}

/**
 * Applies `changes` (distinct names, all hashing into this shard) to `shard` at `depth`, rewriting only
 * this shard and the children that the changes reach. A non-root shard left with one entry folds into
 * its parent's slot, and an empty one disappears, so the result is the layout a fresh build of the same
 * names gives.
 */
export async function editShard(ctx: ShardEditContext, shard: ShardNode, depth: number, changes: readonly Change[], isRoot: boolean): Promise<EditOutcome> {
  const groups = new Map<number, Change[]>();
  for (const change of changes) {
    const index = hashOf(changeName(change)).slot(depth, shard.bits);
    const group = groups.get(index);
    if (group === undefined) groups.set(index, [change]);
    else group.push(change);
  }
  const slots = new Map<number, ShardSlot>(shard.slots);
  for (const [index, group] of groups) {
    ctx.signal?.throwIfAborted();
    const slot = slots.get(index);
    let outcome: EditOutcome;
    if (slot?.kind === 'shard') {
      const child = await readShard(ctx, slot.cid, shard.fanout, ctx.what);
      outcome = await editShard(ctx, child, depth + 1, group, false);
    } else {
      outcome = editSlotEntry(ctx, slot === undefined ? undefined : fromDirectoryEntry(slot.entry), group, depth, shard.fanout);
    }
    if (outcome.kind === 'empty') slots.delete(index);
    else if (outcome.kind === 'entry') slots.set(index, { kind: 'entry', entry: outcome.entry });
    else slots.set(index, shardLink(outcome.cid, outcome.size));
  }
  if (!isRoot) {
    if (slots.size === 0) return { kind: 'empty' };
    if (slots.size === 1) {
      const only = slots.values().next().value as ShardSlot;
      if (only.kind === 'entry') return { kind: 'entry', entry: fromDirectoryEntry(only.entry) };
    }
  }
  return { kind: 'shard', ...writeShard(ctx, { fanout: shard.fanout, bits: shard.bits, slots }) };
}

/** A slot holding at most one entry, changed: what stays is an entry, nothing, or a fresh child shard. */
function editSlotEntry(ctx: ShardEditContext, existing: Entry | undefined, group: readonly Change[], depth: number, fanout: number): EditOutcome {
  let kept = existing;
  const entries: Entry[] = [];
  for (const change of group) {
    if (change.kind === 'remove') {
      if (kept === undefined || kept.name !== change.target.name) throw missing(ctx, change);
      ctx.displaced.push(kept);
      kept = undefined;
    } else {
      if (kept !== undefined && kept.name === change.entry.name) {
        ctx.displaced.push(kept);
        kept = undefined;
      }
      entries.push(change.entry);
    }
  }
  if (kept !== undefined) entries.push(kept);
  if (entries.length === 0) return { kind: 'empty' };
  if (entries.length === 1) return { kind: 'entry', entry: entries[0] as Entry };
  return { kind: 'shard', ...buildShard(ctx, entries, depth + 1, fanout) };
}
