import { array, number, object, safeParse, summarize, type GenericSchema, type InferOutput } from 'valibot';
import { expect } from 'vitest';
import type { ServiceEventName } from '../../shared/api-types.js';
import { ServiceEventSchemas } from '../../shared/schemas/events.js';
import type { ReceivedEvent } from '../helpers/event-stream-reader.js';
import type { CallResult } from '../helpers/test-server.js';

/**
 * The server's side of the schemas the window checks answers with (shared/schemas/): each answer the window
 * reads, held to its schema as the window holds it, the first fault named with its path.
 */

export function held<S extends GenericSchema>(schema: S, value: unknown, what: string): InferOutput<S> {
  const result = safeParse(schema, value);
  if (!result.success) expect.fail(`${what} does not fit its schema:\n${summarize(result.issues)}\n${JSON.stringify(value)}`);
  return result.output;
}

/** A 200 answer's `data`, held to `schema`. */
export function dataOf<S extends GenericSchema>(answer: CallResult, schema: S, what: string): InferOutput<S> {
  expect(answer.status, `${what}: ${answer.text}`).toBe(200);
  return held(schema, (answer.json as { data?: unknown }).data, what);
}

/** A 200 list answer (`{data: [...], total}`) whose rows are held to `schema`; never empty, or the check would hold nothing. */
export function rowsOf<S extends GenericSchema>(answer: CallResult, schema: S, what: string): InferOutput<S>[] {
  expect(answer.status, `${what}: ${answer.text}`).toBe(200);
  const rows = held(object({ data: array(schema), total: number() }), answer.json, what).data;
  expect(rows.length, `${what} lists nothing`).toBeGreaterThan(0);
  return rows;
}

/** Every event received, each payload held to its event's schema; answers how many of each name. */
export function heldEvents(received: readonly ReceivedEvent[]): Partial<Record<ServiceEventName, number>> {
  const counts: Partial<Record<ServiceEventName, number>> = {};
  for (const { event, data } of received) {
    expect(Object.keys(ServiceEventSchemas), `an event named ${event}`).toContain(event);
    const name = event as ServiceEventName;
    held(ServiceEventSchemas[name], data, `event ${name}`);
    counts[name] = (counts[name] ?? 0) + 1;
  }
  return counts;
}
