/**
 * The events GET /api/v0/events sends (shared/api-types.ts: ServiceEvents) and their runtime checks: a
 * page that subscribes to `pin` gets a checked PinRecord or a removal, never a half-understood object.
 */
import { SERVICE_EVENT_NAMES, type ServiceEventName, type ServiceEvents } from '../../shared/api-types.js';
import { isAccountUsage } from '../api/account.js';
import { isIpnsRecordView } from '../api/names.js';
import { isPinRecord } from '../api/pins.js';
import { isRemoval, isRecord } from '../api/shape.js';
import { isSyncFolderView } from '../api/sync.js';

export type ServiceEvent = { [T in ServiceEventName]: { type: T; payload: ServiceEvents[T] } }[ServiceEventName];

const CHECKS: { [T in ServiceEventName]: (value: unknown) => value is ServiceEvents[T] } = {
  usage: isAccountUsage,
  pin: (value): value is ServiceEvents['pin'] => isPinRecord(value) || isRemoval(value, 'cid'),
  name: (value): value is ServiceEvents['name'] => isIpnsRecordView(value) || isRemoval(value, 'name'),
  key: (value): value is ServiceEvents['key'] =>
    isRecord(value) && typeof value.access_key === 'string' && (value.removed === undefined || value.removed === true),
  sync: (value): value is ServiceEvents['sync'] => isSyncFolderView(value) || isRemoval(value, 'id'),
  partner: (value): value is ServiceEvents['partner'] => isRecord(value) && typeof value.uuid === 'string',
};

function isServiceEventName(event: string): event is ServiceEventName {
  return (SERVICE_EVENT_NAMES as readonly string[]).includes(event);
}

/** One parsed SSE event as a typed service event; null for an unknown name or a payload of the wrong shape. */
export function decodeServiceEvent(event: string, data: string): ServiceEvent | null {
  if (!isServiceEventName(event)) return null;
  let payload: unknown;
  try {
    payload = JSON.parse(data);
  } catch {
    return null;
  }
  if (!CHECKS[event](payload)) return null;
  return { type: event, payload } as ServiceEvent;
}

/** True for the removal form of a pin, name, key or sync event. */
export function isRemovedEvent(payload: object): payload is { removed: true } {
  return (payload as { removed?: unknown }).removed === true;
}
