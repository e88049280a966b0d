import type { PinStatus } from '../../../shared/api-types.js';
import { stmt, type Db } from './database.js';

export interface PinRow {
  id: number;
  accountId: number;
  cid: string;
  name: string;
  status: PinStatus;
  size: number;
  createdAt: number;
  updatedAt: number;
  deadline: number | null;
}

interface RawPin {
  id: number;
  account_id: number;
  cid: string;
  name: string;
  status: PinStatus;
  size: number;
  created_at: number;
  updated_at: number;
  deadline: number | null;
}

function toPin(raw: RawPin): PinRow {
  return {
    id: raw.id,
    accountId: raw.account_id,
    cid: raw.cid,
    name: raw.name,
    status: raw.status,
    size: raw.size,
    createdAt: raw.created_at,
    updatedAt: raw.updated_at,
    deadline: raw.deadline,
  };
}

export function pinOf(db: Db, accountId: number, cid: string): PinRow | null {
  const raw = stmt(db, 'SELECT * FROM pins WHERE account_id = ? AND cid = ?').get(accountId, cid) as RawPin | undefined;
  return raw ? toPin(raw) : null;
}

export interface NewPin {
  accountId: number;
  cid: string;
  name: string;
  status: PinStatus;
  size: number;
  createdAt: number;
  deadline: number | null;
}

export function insertPin(db: Db, pin: NewPin): void {
  stmt(
    db,
    `INSERT INTO pins (account_id, cid, name, status, size, created_at, updated_at, deadline)
     VALUES (@accountId, @cid, @name, @status, @size, @createdAt, @createdAt, @deadline)`,
  ).run(pin);
}

export function updatePinState(db: Db, id: number, status: PinStatus, size: number, deadline: number | null, now: number): void {
  stmt(db, 'UPDATE pins SET status = ?, size = ?, deadline = ?, updated_at = ? WHERE id = ?').run(status, size, deadline, now, id);
}

export function renamePin(db: Db, id: number, name: string, now: number): void {
  stmt(db, 'UPDATE pins SET name = ?, updated_at = ? WHERE id = ?').run(name, now, id);
}

export function deletePin(db: Db, id: number): void {
  stmt(db, 'DELETE FROM pins WHERE id = ?').run(id);
}

export function listPins(db: Db, accountId: number, status: PinStatus | null, limit: number, start: number): PinRow[] {
  const rows =
    status === null
      ? stmt(db, 'SELECT * FROM pins WHERE account_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?').all(accountId, limit, start)
      : stmt(db, 'SELECT * FROM pins WHERE account_id = ? AND status = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?').all(
          accountId,
          status,
          limit,
          start,
        );
  return (rows as RawPin[]).map(toPin);
}

export function countPins(db: Db, accountId: number, status: PinStatus | null): number {
  const row =
    status === null
      ? stmt(db, 'SELECT COUNT(*) AS n FROM pins WHERE account_id = ?').get(accountId)
      : stmt(db, 'SELECT COUNT(*) AS n FROM pins WHERE account_id = ? AND status = ?').get(accountId, status);
  return (row as { n: number }).n;
}

/** Pins of every account in one status: GC's roots and the pinning queue. */
export function pinsWithStatus(db: Db, status: PinStatus): PinRow[] {
  return (stmt(db, 'SELECT * FROM pins WHERE status = ? ORDER BY id').all(status) as RawPin[]).map(toPin);
}

/** The CIDs GC must keep: every pin that is not being removed. */
export function liveRootCids(db: Db): string[] {
  return (stmt(db, "SELECT DISTINCT cid FROM pins WHERE status != 'unpinning'").all() as { cid: string }[]).map((r) => r.cid);
}

/** The account's live pins (pinned or pinning): what folder rule 4 walks to find another pin reaching a root. */
export function livePinsOf(db: Db, accountId: number): PinRow[] {
  return (stmt(db, "SELECT * FROM pins WHERE account_id = ? AND status IN ('pinned', 'pinning') ORDER BY id").all(accountId) as RawPin[]).map(
    toPin,
  );
}
