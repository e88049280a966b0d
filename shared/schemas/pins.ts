import { nullable, number, object, optional, picklist, string } from 'valibot';
import { PIN_STATUSES } from '../api-types.js';

export const PinStatusSchema = picklist(PIN_STATUSES);

/** A pinning pin's fetch from the network. */
export const PinFetchProgressSchema = object({
  blocks: number(),
  bytes: number(),
  source: nullable(string()),
});

/** A row of `GET /api/v0/pin`, `GET /api/v0/pin/{cid}` and the `pin` event. */
export const PinRecordSchema = object({
  name: string(),
  cid: string(),
  status: PinStatusSchema,
  size: number(),
  created_at: number(),
  fetch: optional(PinFetchProgressSchema),
});
