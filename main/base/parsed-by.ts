import { rawTransform, type RawTransformAction } from 'valibot';
import { AppError } from './errors.js';

/**
 * A step of a valibot schema that checks a value with a parser of its domain (a CID, an IPNS name, an
 * endpoint URL, a retention policy): the parser's refusal (an AppError) becomes the schema's issue with its
 * message; anything else it throws stays a fault. Here, below every domain, so that a domain's own schema
 * (the network settings' section, read from the settings file and the API alike) and the routes' request
 * schemas (http/input/, which re-export it from fields.ts) share it.
 * `pipe(unknown(), parsedBy((value) => parseCidParam(value, 'arg')))`.
 */
export function parsedBy<I, T>(parse: (value: I) => T): RawTransformAction<I, T> {
  return rawTransform<I, T>(({ dataset, addIssue, NEVER }) => {
    try {
      return parse(dataset.value);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      addIssue({ message: error.message });
      return NEVER;
    }
  });
}
