import type { CID } from 'multiformats/cid';
import { custom, maxLength, nullable, number, object, optional, picklist, pipe, string, transform, unknown, check, type GenericSchema } from 'valibot';
import { KEY_FORMATS, MAX_SECRET_TEXT } from '../../names/keys.js';
import type { ImportNameInput } from '../../names/manage-names.js';
import { parseIpnsName, type IpnsName } from '../../names/name-parse.js';
import { cidParamField, field, parsedBy, queryDigits } from './fields.js';

/**
 * The request schemas of the IPNS API and the account API's IPNS views (contract section 7). Each object
 * lists its fields in the order their faults take precedence, the order the API has always checked them in.
 */

const MAX_ALIAS_LENGTH = 256;
const MAX_PAGE_LIMIT = 1000;

/** Some text, then an IPNS name in any accepted form (k51..., 12D3KooW..., Qm..., white space trimmed). */
const ipnsNameText = (param: string): GenericSchema<unknown, IpnsName> =>
  pipe(
    unknown(),
    custom<string>((value) => typeof value === 'string' && value !== '', `${param} is required and must be an IPNS name`),
    parsedBy((text: string) => parseIpnsName(text, param)),
  );

const ipnsName = (param: string): GenericSchema<unknown, IpnsName> => field(ipnsNameText(param));

/** The CID a name points at: the IPNS API takes any multibase. */
const nameValue = (param: string): GenericSchema<unknown, CID> => cidParamField(param, 'ipns');

/** An optional alias: absent, null or '' mean none. */
const optionalAlias = (param: string): GenericSchema<unknown, string | null> =>
  field(
    pipe(
      unknown(),
      transform((value) => (value === undefined || value === null || value === '' ? null : value)),
      nullable(pipe(string(`${param} must be a string`), maxLength(MAX_ALIAS_LENGTH, `${param} is longer than ${MAX_ALIAS_LENGTH} characters`))),
    ),
  );

const requiredAlias = (param: string): GenericSchema<unknown, string> =>
  pipe(
    optionalAlias(param),
    custom<string>((value) => value !== null, `${param} is required`),
  );

/** `pin=true` on create and publish; absent, '' and 'false' mean no. */
const pinFlag = field(
  pipe(
    unknown(),
    transform((value) => value ?? ''),
    picklist(['', 'false', 'true'], 'pin must be true or false'),
    transform((value) => value === 'true'),
  ),
);

/** The starting sequence of an import: a non-negative integer that still leaves room for `seq + 1`. */
const seq = field(
  pipe(
    unknown(),
    transform((value) => value ?? 0),
    number('seq must be a non-negative integer'),
    check((value) => Number.isSafeInteger(value) && value >= 0 && value < Number.MAX_SAFE_INTEGER, 'seq must be a non-negative integer'),
  ),
);

/**
 * name/import's `name`: absent or '' (a Pinfold extension) is the key's own name, so it is not a field()
 * (that would take a missing key for null, which is refused like any value that is no name).
 */
const statedName = optional(
  pipe(
    unknown(),
    transform((value) => (value === '' ? undefined : value)),
    optional(ipnsNameText('name')),
  ),
);

export const NameCreateQuery = object({ pin: pinFlag, arg: nameValue('arg'), alias: optionalAlias('alias') });
export const NamePublishQuery = object({ pin: pinFlag, key: ipnsName('key'), arg: nameValue('arg') });
export const NameRemoveQuery = object({ key: ipnsName('key') });

/** name/public (contract section 11): `on` is required, `true` or `false`. */
export const NamePublicQuery = object({
  arg: ipnsName('arg'),
  on: field(
    pipe(
      unknown(),
      picklist(['true', 'false'], 'on is required: true or false'),
      transform((value) => value === 'true'),
    ),
  ),
});

/** Spec: `limit` 1..1000 defaults to 10 and `start` to 0. */
export const NamePageQuery = object({
  limit: queryDigits({
    digits: 15,
    fallback: 10,
    accepts: (n) => n >= 1 && n <= MAX_PAGE_LIMIT,
    message: `limit must be an integer from 1 to ${MAX_PAGE_LIMIT}`,
  }),
  start: queryDigits({ digits: 15, fallback: 0, accepts: () => true, message: 'start must be a non-negative integer' }),
});

export const AliasSearchQuery = object({ alias: requiredAlias('alias') });
export const NamePathParams = object({ name: ipnsName('name') });
export const AliasBody = object({ name: ipnsName('name'), alias: optionalAlias('alias') });

/** name/import's body: the stated name, the value, seq and alias, then the key's format and text (read by the domain). */
export const NameImportBody: GenericSchema<unknown, ImportNameInput> = pipe(
  object({
    name: statedName,
    value: nameValue('value'),
    seq,
    alias: optionalAlias('alias'),
    format: field(picklist(KEY_FORMATS, `format must be one of ${KEY_FORMATS.join(', ')}`)),
    secret_key: field(
      pipe(
        unknown(),
        custom<string>((value) => typeof value === 'string' && value.trim() !== '', 'secret_key is required'),
        maxLength(MAX_SECRET_TEXT, 'secret_key is too long'),
      ),
    ),
  }),
  transform((body) => ({
    stated: body.name ?? null,
    value: body.value,
    seq: body.seq,
    alias: body.alias,
    secretKey: { text: body.secret_key, format: body.format },
  })),
);
