import { BadInputError } from '../../main/base/errors.js';

/**
 * What a request schema refused `read` with (main/http/input/): the 400's message and the field it names as
 * the envelope's `param`. Throws when `read` accepted, or failed with anything but a BadInputError.
 */
export function refusalOf(read: () => unknown): { message: string; param: string | undefined } {
  try {
    read();
  } catch (error) {
    if (!(error instanceof BadInputError)) throw error;
    return { message: error.message, param: error.param };
  }
  throw new Error('accepted');
}
