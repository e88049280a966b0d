import { custom, object, pipe, regex } from 'valibot';
import { AccessKeyBody } from './account-input.js';
import { field, integerField, textField } from './fields.js';

/**
 * The request schemas of the partner interface: a partner names the users it created by their uuid. Its
 * page of users is the pin list's (pin-input.ts's PageQuery); a key's name and permissions are the
 * account API's (account-input.ts).
 */

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const uuid = textField('uuid', { max: 128 });

export const PartnerUserCreateBody = object({
  email: pipe(textField('email', { max: 320 }), regex(EMAIL, 'email is not an e-mail address')),
  name: textField('name', { max: 256 }),
  uuid,
});

/** `?uuid=` of the user stats and key list: some text (the user lookup answers for the rest). */
export const PartnerUserQuery = object({
  uuid: field(custom<string>((value) => typeof value === 'string' && value !== '', 'uuid is required')),
});

export const PartnerPlanBody = object({ uuid, plan_id: integerField('plan_id') });
export const PartnerKeyBody = object({ uuid, ...AccessKeyBody.entries });
export const PartnerKeyNameBody = object({ uuid, name: AccessKeyBody.entries.name });
