import { array, custom, maxLength, object, picklist, pipe, transform, unknown, type GenericSchema } from 'valibot';
import { PERMISSIONS, type Permission } from '../../../shared/api-types.js';
import { DEFAULT_DAYS, MAX_DAYS } from '../../accounts/usage-daily.js';
import { field, queryDigits } from './fields.js';

/**
 * The request schemas of the account API (contract section 2): daily usage and access keys. The partner
 * routes take a key's name and permissions from here too.
 */

const MAX_KEY_NAME_LENGTH = 128;

/** An access key's name: some text besides white space, at most 128 characters. */
export const KeyName: GenericSchema<unknown, string> = field(
  pipe(
    unknown(),
    custom<string>((value) => typeof value === 'string' && value.trim() !== '', 'name must be a non-empty string'),
    maxLength(MAX_KEY_NAME_LENGTH, `name must be at most ${MAX_KEY_NAME_LENGTH} characters`),
  ),
);

/** An access key's permissions: a non-empty list of known ones, each kept once in the order given. */
export const Permissions: GenericSchema<unknown, Permission[]> = field(
  pipe(
    unknown(),
    custom<unknown[]>((value) => Array.isArray(value) && value.length > 0, 'permissions must be a non-empty array'),
    array(picklist(PERMISSIONS, (issue) => `permissions: unknown permission ${JSON.stringify(issue.input)}; allowed: ${PERMISSIONS.join(', ')}`)),
    transform((permissions) => [...new Set(permissions)]),
  ),
);

/** `GET /api/v0/stats/daily` (issue 12): `days` 1..366, 30 when absent or empty. */
export const DailyUsageQuery = object({
  days: queryDigits({ digits: 3, fallback: DEFAULT_DAYS, accepts: (n) => n >= 1 && n <= MAX_DAYS, message: `days must be an integer from 1 to ${MAX_DAYS}` }),
});

export const AccessKeyBody = object({ name: KeyName, permissions: Permissions });
export const AccessKeyNameBody = object({ name: KeyName });
