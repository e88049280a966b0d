/**
 * The events GET /api/v0/events sends (shared/api-types.ts: ServiceEvents) and their runtime checks: a
 * page that subscribes to `pin` gets a checked PinRecord or a removal, never a half-understood object.
 */
import { is } from 'valibot';
import { SERVICE_EVENT_NAMES, type ServiceEventName, type ServiceEvents } from '../../shared/api-types.js';
import { ServiceEventSchemas } from '../../shared/schemas/events.js';

export type ServiceEvent = { [T in ServiceEventName]: { type: T; payload: ServiceEvents[T] } }[ServiceEventName];

const isPayloadOf = <T extends ServiceEventName>(event: T, value: unknown): value is ServiceEvents[T] => is(ServiceEventSchemas[event], value);

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
  if (!isPayloadOf(event, payload)) return null;
  return { type: event, payload } as ServiceEvent;
}

/** True for the removal form of a pin, name, key or sync event. */
export function isRemovedEvent(payload: object): payload is { removed: true } {
  return (payload as { removed?: unknown }).removed === true;
}
