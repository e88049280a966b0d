import type { CID } from 'multiformats/cid';
import { check, maxLength, object, optional, picklist, pipe, rawTransform, string, transform, unknown, type GenericSchema } from 'valibot';
import { PIN_STATUSES } from '../../../shared/api-types.js';
import { cidSpellings, type PinListQuery } from '../../pins/pin-list.js';
import type { PinPosition } from '../../store/repositories/pins.js';
import { parseCidParam } from '../cid-param.js';
import { emptyAsAbsent, field, optionalQueryInteger, parsedBy, queryInteger, textField } from './fields.js';

/**
 * The request schemas of the pin routes (contract section 6 and the list's extensions); the partner and PSA
 * routes take their page and pin name from here too.
 */

const MAX_PIN_NAME = 255;
const MAX_NAME_FILTER = 255;

/** A CID parameter of the pin routes, in the standard dialect's words (a missing one: "<parameter> is required (a CID)"). */
export const cidField = (parameter: string): GenericSchema<unknown, CID> =>
  field(
    pipe(
      unknown(),
      parsedBy((value: unknown) => parseCidParam(value, parameter)),
    ),
  );

/** A pin's name: absent or null is the empty name; at most 255 characters. */
export const PinName: GenericSchema<unknown, string> = field(
  pipe(
    unknown(),
    transform((value) => value ?? ''),
    string('name must be a string'),
    maxLength(MAX_PIN_NAME, `name must be at most ${MAX_PIN_NAME} characters`),
  ),
);

/** `limit` 1..1000 (default 10), `start` >= 0 (default 0) (contract section 6). */
export const PageQuery = object({
  limit: queryInteger('limit', 10, 1, 1000),
  start: queryInteger('start', 0, 0, Number.MAX_SAFE_INTEGER),
});

export const PinAddQuery = object({ arg: cidField('arg'), name: PinName });
export const PinRemoveQuery = object({ arg: cidField('arg') });
export const PinPathParams = object({ cid: cidField('cid') });
export const PinRenameBody = object({
  cid: pipe(
    textField('cid', { max: 512 }),
    parsedBy((value: string) => parseCidParam(value, 'cid')),
  ),
  name: pipe(textField('name', { required: false, max: 1024 }), maxLength(MAX_PIN_NAME, `name must be at most ${MAX_PIN_NAME} characters`)),
});

/** A cursor: the base64url text of a pin's position, opaque to clients. */
export function encodeCursor(row: PinPosition): string {
  return Buffer.from(`${row.createdAt}.${row.id}`, 'utf8').toString('base64url');
}

function decodeCursor(value: string): PinPosition | undefined {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(value)) return undefined;
  const match = /^(\d{1,15})\.(\d{1,15})$/.exec(Buffer.from(value, 'base64url').toString('utf8'));
  return match ? { createdAt: Number(match[1]), id: Number(match[2]) } : undefined;
}

const cursor = (parameter: string): GenericSchema<unknown, PinPosition | undefined> =>
  field(
    pipe(
      unknown(),
      transform(emptyAsAbsent),
      rawTransform(({ dataset, addIssue, NEVER }) => {
        if (dataset.value === undefined) return undefined;
        const position = typeof dataset.value === 'string' ? decodeCursor(dataset.value) : undefined;
        if (position) return position;
        addIssue({ message: `${parameter} is not a cursor of this list (use next or prev of a previous answer)` });
        return NEVER;
      }),
    ),
  );

/** The spec's statuses, and the extension `active`: every pin but the unpinning ones. */
const LIST_STATUSES = [...PIN_STATUSES, 'active'] as const;

const statusFilter = field(pipe(unknown(), transform(emptyAsAbsent), optional(picklist(LIST_STATUSES, `status must be one of ${LIST_STATUSES.join(', ')}`))));

const nameFilter = field(
  pipe(
    unknown(),
    transform(emptyAsAbsent),
    optional(pipe(string('name must be one text to search pin names for'), maxLength(MAX_NAME_FILTER, `name must be 1 to ${MAX_NAME_FILTER} characters`))),
  ),
);

const cidFilter = field(
  pipe(
    unknown(),
    transform(emptyAsAbsent),
    optional(
      pipe(
        unknown(),
        parsedBy((value: unknown) => cidSpellings(parseCidParam(value, 'cid'))),
      ),
    ),
  ),
);

/** GET /api/v0/pin: the spec's status/limit/start and the extensions name, cid and the after/before cursors. */
export const PinListQuerySchema: GenericSchema<unknown, PinListQuery> = pipe(
  object({
    status: statusFilter,
    name: nameFilter,
    cid: cidFilter,
    limit: PageQuery.entries.limit,
    start: optionalQueryInteger('start', 0, Number.MAX_SAFE_INTEGER),
    after: cursor('after'),
    before: cursor('before'),
  }),
  check((query) => query.after === undefined || query.before === undefined, 'after and before cannot be used together'),
  check((query) => (query.after === undefined && query.before === undefined) || query.start === undefined, 'start cannot be used with after or before'),
  transform((query): PinListQuery => ({
    filter: { status: query.status ?? null, nameLower: query.name?.toLowerCase() ?? null, cids: query.cid ?? null },
    limit: query.limit,
    start: query.start ?? 0,
    ...(query.after ? { after: query.after } : {}),
    ...(query.before ? { before: query.before } : {}),
  })),
);
