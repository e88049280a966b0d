import type { EntryKind, FileStat, RawEvent, RawEventKind } from './coalescer.js';

/**
 * The first step of coalescing: raw events replayed, in arrival order, into one slot per path (as
 * the file system compares paths) telling what the path was at batch start and what it is now.
 * Pure; the net changes are read from the slots afterwards (net-changes.ts).
 */

/** One path's history within the batch. `before` is its kind at batch start (null: absent). */
export interface Slot {
  key: string;
  firstPath: string;
  path: string;
  before: EntryKind | null;
  now: EntryKind | null;
  /** Existed at batch start, then was deleted at some point (a folder re-created is a new folder). */
  deleted: boolean;
  /** An add or change was seen: the bytes must be read again. */
  written: boolean;
  stat: FileStat;
  /** Identity of the pre-batch file, from a delete seen before any write: the source side of a move. */
  beforeStat: FileStat | undefined;
}

/** Slots by key, in the order their paths first appeared. `keyOf`: how the file system compares paths. */
export function replaySlots(events: readonly RawEvent[], keyOf: (path: string) => string): Map<string, Slot> {
  const slots = new Map<string, Slot>();
  for (const event of events) {
    const path = trimSlashes(event.path);
    if (path === '') continue; // the root itself: its loss is the unmounted-drive rule, not a change
    const key = keyOf(path);
    let slot = slots.get(key);
    if (!slot) {
      slot = newSlot(key, path, event.kind);
      slots.set(key, slot);
    }
    slot.path = path;
    applyEvent(slots, slot, event);
  }
  return slots;
}

/** A path's first event tells what it was at batch start: a change or delete means it existed. */
function newSlot(key: string, path: string, firstKind: RawEventKind): Slot {
  const before: EntryKind | null = firstKind === 'unlink' || firstKind === 'change' ? 'file' : firstKind === 'unlinkDir' ? 'dir' : null;
  return { key, firstPath: path, path, before, now: before, deleted: false, written: false, stat: {}, beforeStat: undefined };
}

function applyEvent(slots: ReadonlyMap<string, Slot>, slot: Slot, event: RawEvent): void {
  switch (event.kind) {
    case 'add':
    case 'change':
      reviveAncestors(slots, slot.key);
      slot.now = 'file';
      slot.written = true;
      slot.stat = statOf(event);
      break;
    case 'addDir':
      reviveAncestors(slots, slot.key);
      slot.now = 'dir';
      break;
    case 'unlink':
      if (slot.before === 'file' && !slot.written && !slot.deleted) slot.beforeStat = statOf(event);
      markGone(slot);
      slot.written = false;
      break;
    case 'unlinkDir': {
      markGone(slot);
      const prefix = `${slot.key}/`;
      for (const child of slots.values()) {
        if (!child.key.startsWith(prefix) || child.now === null) continue;
        markGone(child);
        child.written = false;
      }
      break;
    }
  }
}

function markGone(slot: Slot): void {
  if (slot.before !== null) slot.deleted = true;
  slot.now = null;
}

/** A child appearing under a folder that this batch deleted means the folder came back. */
function reviveAncestors(slots: ReadonlyMap<string, Slot>, key: string): void {
  for (const ancestor of ancestorsOf(key)) {
    const slot = slots.get(ancestor);
    if (slot && slot.now === null) slot.now = 'dir';
  }
}

export function ancestorsOf(key: string): string[] {
  const out: string[] = [];
  let at = key.lastIndexOf('/');
  while (at > 0) {
    out.push(key.slice(0, at));
    at = key.lastIndexOf('/', at - 1);
  }
  return out;
}

function statOf(event: RawEvent): FileStat {
  const stat: FileStat = {};
  if (event.size !== undefined) stat.size = event.size;
  if (event.mtimeMs !== undefined) stat.mtimeMs = event.mtimeMs;
  if (event.ino !== undefined) stat.ino = event.ino;
  if (event.fingerprint !== undefined) stat.fingerprint = event.fingerprint;
  return stat;
}

function trimSlashes(path: string): string {
  let start = 0;
  let end = path.length;
  while (start < end && path[start] === '/') start++;
  while (end > start && path[end - 1] === '/') end--;
  return path.slice(start, end);
}
