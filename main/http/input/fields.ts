import { custom, maxLength, number, optional, pipe, rawTransform, string, transform, unknown, type GenericSchema, type RawTransformAction } from 'valibot';
import { AppError } from '../../base/errors.js';
import type { CID } from 'multiformats/cid';
import { parsedBy } from '../../base/parsed-by.js';
import { parseCidParam, type CidParamDialect } from '../cid-param.js';

/**
 * Building blocks of the routes' request schemas. Query values arrive as text (or an array when a
 * parameter is repeated); JSON bodies as any JSON value. Each block keeps the exact words the API has always
 * answered with, since clients and tests match on them.
 */

/** A query value that is absent or empty reads as undefined (`?limit=` is no limit given). */
export function emptyAsAbsent(value: unknown): unknown {
  return value === '' || value === null ? undefined : value;
}

/**
 * A field of a request schema: a key that is not there is read as null, which every block here takes as
 * absent (JSON bodies send null for absent too). valibot refuses a missing key otherwise, before its
 * schema could say the field is required in its own words.
 */
export function field<T>(schema: GenericSchema<unknown, T>): GenericSchema<unknown, T> {
  return optional(schema, null);
}

/**
 * A step that checks a field with a parser of its domain (a CID, an IPNS name, a retention policy): the
 * parser's refusal (an AppError) becomes the schema's issue with its message. Written in base/ (a domain's
 * own schema uses it too) and given here with the other blocks.
 */
export { parsedBy };

/**
 * A query integer from `min` to `max`, `fallback` when absent or empty; anything else (a sign, a fraction,
 * a repeated parameter) is refused with "<name> must be an integer from <min> to <max>".
 */
export function queryInteger(name: string, fallback: number, min: number, max: number): GenericSchema<unknown, number> {
  return field(
    pipe(
      optionalQueryInteger(name, min, max),
      transform((value) => value ?? fallback),
    ),
  );
}

/** As queryInteger, undefined when absent or empty (where being given matters, e.g. `start` beside a cursor). */
export function optionalQueryInteger(name: string, min: number, max: number): GenericSchema<unknown, number | undefined> {
  const message = `${name} must be an integer from ${min} to ${max}`;
  return field(
    pipe(
      unknown(),
      transform(emptyAsAbsent),
      custom<unknown>(
        (value) => value === undefined || (typeof value === 'string' && /^\d+$/.test(value) && Number(value) >= min && Number(value) <= max),
        message,
      ),
      transform((value) => (value === undefined ? undefined : Number(value))),
    ),
  );
}

/**
 * A text field of a JSON body: required unless said (then absent or null reads as ''), never empty when
 * required, at most `max` characters (1024 by default), in the words the API has always used.
 */
export function textField(name: string, options: { required?: boolean; max?: number } = {}): GenericSchema<unknown, string> {
  const required = options.required ?? true;
  const max = options.max ?? 1024;
  return field(
    pipe(
      unknown(),
      custom<unknown>((value) => !required || (value !== undefined && value !== null), `${name} is required`),
      transform((value) => value ?? ''),
      string(`${name} must be a string`),
      custom<string>((value) => !required || value !== '', `${name} must not be empty`),
      maxLength(max, `${name} is too long`),
    ),
  );
}

/** An integer field of a JSON body (-0 reads as 0: SQLite would bind it as the real -0.0). */
export function integerField(name: string): GenericSchema<unknown, number> {
  return field(
    pipe(
      unknown(),
      custom<unknown>((value) => value !== undefined && value !== null, `${name} is required`),
      number(`${name} must be an integer`),
      custom<number>((value) => Number.isSafeInteger(value), `${name} must be an integer`),
      transform((value) => (value === 0 ? 0 : value)),
    ),
  );
}

/**
 * A CID parameter in the words of its API (cid-param.ts's dialects: the IPNS API's, a folder operation's
 * body's); a missing or null one is refused as its dialect says.
 */
export function cidParamField(parameter: string, dialect: CidParamDialect): GenericSchema<unknown, CID> {
  return field(
    pipe(
      unknown(),
      parsedBy((value: unknown) => parseCidParam(value, parameter, dialect)),
    ),
  );
}

/**
 * A query number for the APIs whose words differ from queryInteger's: decimal digits (at most `digits` of
 * them) whose value `accepts`, `fallback` when absent or empty; anything else is refused with `message`.
 */
export function queryDigits(options: {
  digits: number;
  fallback: number;
  accepts: (value: number) => boolean;
  message: string;
}): GenericSchema<unknown, number> {
  const { digits, fallback, accepts, message } = options;
  const pattern = new RegExp(`^\\d{1,${digits}}$`);
  return field(
    pipe(
      unknown(),
      transform(emptyAsAbsent),
      custom<unknown>((value) => value === undefined || (typeof value === 'string' && pattern.test(value) && accepts(Number(value))), message),
      transform((value) => (value === undefined ? fallback : Number(value))),
    ),
  );
}

/**
 * A step over a whole request object that checks fields together with a parser of its domain (a follow's name
 * with its gateways): the parser's refusal (an AppError) becomes the schema's issue at the field the refusal
 * names (its `param`), so the envelope names that field as for any other; anything else it throws stays a fault.
 */
export function parsedTogether<I extends Record<string, unknown>, T>(parse: (value: I) => T): RawTransformAction<I, T> {
  return rawTransform<I, T>(({ dataset, addIssue, NEVER }) => {
    try {
      return parse(dataset.value);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const key = error.param;
      if (key === undefined) addIssue({ message: error.message });
      else addIssue({ message: error.message, path: [{ type: 'object', origin: 'value', input: dataset.value, key, value: dataset.value[key] }] });
      return NEVER;
    }
  });
}

/** A query flag: `true` or `false`, `fallback` when absent or empty; anything else is "<name> must be true or false". */
export function queryFlag(name: string, fallback: boolean): GenericSchema<unknown, boolean> {
  return field(
    pipe(
      unknown(),
      transform(emptyAsAbsent),
      custom<unknown>((value) => value === undefined || value === 'true' || value === 'false', `${name} must be true or false`),
      transform((value) => (value === undefined ? fallback : value === 'true')),
    ),
  );
}

/**
 * A query text given at most once: undefined when absent, the text when given once (empty too); anything
 * else (a repeated parameter arrives as an array) is refused with `message`.
 */
export function onceQueryText(message: string): GenericSchema<unknown, string | undefined> {
  return field(
    pipe(
      unknown(),
      custom<unknown>((value) => value === undefined || value === null || typeof value === 'string', message),
      transform((value) => (typeof value === 'string' ? value : undefined)),
    ),
  );
}
