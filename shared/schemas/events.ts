import { literal, object, optional, string, union, type GenericSchema } from 'valibot';
import type { ServiceEventName } from '../api-types.js';
import { AccountUsageSchema } from './account.js';
import { IpnsRecordViewSchema } from './names.js';
import { PinRecordSchema } from './pins.js';
import { SyncFolderViewSchema } from './sync-folders.js';

/** `event: pin` after a pin left the list. */
export const PinRemovedSchema = object({ cid: string(), removed: literal(true) });

/** `event: name` after name/rm. */
export const NameRemovedSchema = object({ name: string(), removed: literal(true) });

/** `event: sync` after sync/rm. */
export const SyncFolderRemovedSchema = object({ id: string(), removed: literal(true) });

/** `event: key`: a key created (no `removed`) or deleted. */
export const KeyChangeSchema = object({ access_key: string(), removed: optional(literal(true)) });

/** `event: partner`: a notice that one of the partner's users changed. */
export const PartnerUserChangeSchema = object({ uuid: string() });

/** The payload of each event of `GET /api/v0/events`, by the event's name. */
export const ServiceEventSchemas = {
  usage: AccountUsageSchema,
  pin: union([PinRecordSchema, PinRemovedSchema]),
  name: union([IpnsRecordViewSchema, NameRemovedSchema]),
  key: KeyChangeSchema,
  sync: union([SyncFolderViewSchema, SyncFolderRemovedSchema]),
  partner: PartnerUserChangeSchema,
} satisfies Record<ServiceEventName, GenericSchema>;
