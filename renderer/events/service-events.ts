/**
 * The events GET /api/v0/events sends (api12 section 4) and their runtime checks: a page that
 * subscribes to `pin` gets a checked PinRecord or a removal, never a half-understood object.
 */
import type { AccountUsage, IpnsRecordView, PinRecord, SyncFolderView } from '../../shared/api-types.js';
import { isAccountUsage } from '../api/account.js';
import { isIpnsRecordView } from '../api/names.js';
import { isPinRecord } from '../api/pins.js';
import { isRemoval, isRecord } from '../api/shape.js';
import { isSyncFolderView } from '../api/sync.js';

export interface ServiceEventMap {
  /** The account's usage (the same object as GET /api/v0/stats), at connect and after each change. */
  usage: AccountUsage;
  /** A pin after its change, or its removal. */
  pin: PinRecord | { cid: string; removed: true };
  /** A name after create/publish/alias/import, or its removal. */
  name: IpnsRecordView | { name: string; removed: true };
  /** A key created or deleted (never a secret). */
  key: { access_key: string; removed?: true };
  /** A sync folder's status row, or its removal (the owner's admin keys only). */
  sync: SyncFolderView | { id: string; removed: true };
}

export type ServiceEventType = keyof ServiceEventMap;

export const SERVICE_EVENT_TYPES: readonly ServiceEventType[] = ['usage', 'pin', 'name', 'key', 'sync'];

export type ServiceEvent = { [T in ServiceEventType]: { type: T; payload: ServiceEventMap[T] } }[ServiceEventType];

const CHECKS: { [T in ServiceEventType]: (value: unknown) => value is ServiceEventMap[T] } = {
  usage: isAccountUsage,
  pin: (value): value is ServiceEventMap['pin'] => isPinRecord(value) || isRemoval(value, 'cid'),
  name: (value): value is ServiceEventMap['name'] => isIpnsRecordView(value) || isRemoval(value, 'name'),
  key: (value): value is ServiceEventMap['key'] =>
    isRecord(value) && typeof value.access_key === 'string' && (value.removed === undefined || value.removed === true),
  sync: (value): value is ServiceEventMap['sync'] => isSyncFolderView(value) || isRemoval(value, 'id'),
};

function isServiceEventType(event: string): event is ServiceEventType {
  return (SERVICE_EVENT_TYPES as readonly string[]).includes(event);
}

/** One parsed SSE event as a typed service event; null for an unknown type or a payload of the wrong shape. */
export function decodeServiceEvent(event: string, data: string): ServiceEvent | null {
  if (!isServiceEventType(event)) return null;
  let payload: unknown;
  try {
    payload = JSON.parse(data);
  } catch {
    return null;
  }
  if (!CHECKS[event](payload)) return null;
  return { type: event, payload } as ServiceEvent;
}

/** True for the removal form of a pin, name or sync event. */
export function isRemovedEvent(payload: object): payload is { removed: true } {
  return (payload as { removed?: unknown }).removed === true;
}
