import { array, literal, number, object, optional, picklist, string, variant } from 'valibot';
import { PERMISSIONS } from '../api-types.js';

export const PermissionSchema = picklist(PERMISSIONS);

const listingEntries = {
  name: string(),
  access_key: string(),
  permissions: array(PermissionSchema),
};

/** Only on the owner key (a row of `GET /api/v0/keys`). */
const ownerMark = { owner: optional(literal(true)) };

/** A key as the spec lists it (a partner user's keys). */
export const AccessKeyListingSchema = object(listingEntries);

/** `POST /api/v0/key` and a partner's `POST /api/v0/partner/user/key`: the new key with its secret, shown once. */
export const NewAccessKeySchema = object({
  access_key: string(),
  access_secret: string(),
  psa_token: string(),
});

/** A row of `GET /api/v0/keys`: a session key carries its expiry, any other key need not. */
export const AccessKeyViewSchema = variant('session', [
  object({ ...listingEntries, ...ownerMark, session: literal(false) }),
  object({ ...listingEntries, ...ownerMark, session: literal(true), expires_at: number() }),
]);
