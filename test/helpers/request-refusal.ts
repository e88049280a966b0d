import type { GenericSchema } from 'valibot';
import { BadInputError } from '../../main/base/errors.js';
import { requestInput } from '../../main/http/input/request-input.js';

/** What a route answers a request its schema refuses: the envelope's `msg` and `param`. */
export interface Refusal {
  msg: string;
  param: string | undefined;
}

/** The refusal of `value` by `schema` through requestInput, as a route would answer it; throws when it is accepted. */
export function refusalOf(schema: GenericSchema, value: unknown): Refusal {
  try {
    requestInput(schema, value);
  } catch (error) {
    if (error instanceof BadInputError) return { msg: error.message, param: error.param };
    throw error;
  }
  throw new Error(`accepted: ${JSON.stringify(value)}`);
}
