import type { GenericSchema } from 'valibot';
import { requestInput } from '../../main/http/input/request-input.js';
import { refusalOf as refusalOfRead } from './input-refusal.js';

/** What a route answers a request its schema refuses: the envelope's `msg` and `param`. */
export interface Refusal {
  msg: string;
  param: string | undefined;
}

/** The refusal of `value` by `schema` through requestInput, as a route would answer it; throws when it is accepted. */
export function refusalOf(schema: GenericSchema, value: unknown): Refusal {
  const { message, param } = refusalOfRead(() => requestInput(schema, value));
  return { msg: message, param };
}
