import { safeParse, type GenericSchema, type InferOutput } from 'valibot';
import { BadInputError } from '../../base/errors.js';

/**
 * The one way a route reads its query, path parameters or JSON body: through the schema that says what it
 * takes (main/http/input/), into typed values for the domain. The first fault, in the schema's order of
 * fields, is the 400 answered: its message as the schema words it, and the top-level field at fault as the
 * envelope's `param`, so that a form can show the refusal beside its field (docs/errors.md).
 *
 *   const { arg, name } = requestInput(PinAddQuery, request.query);
 */
export function requestInput<S extends GenericSchema>(schema: S, value: unknown): InferOutput<S> {
  const result = safeParse(schema, value, { abortEarly: true });
  if (result.success) return result.output;
  const [issue] = result.issues;
  const key = issue.path?.[0]?.key;
  throw new BadInputError(issue.message, typeof key === 'string' ? key : undefined);
}
