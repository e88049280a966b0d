import { array, boolean, nonEmpty, object, picklist, pipe, string } from 'valibot';

/** `GET /api/v0/upload/settings`. */
export const UploadSettingsSchema = object({
  account_uuid: string(),
  cid_profile: string(),
  public_gateway: boolean(),
});

/** Step 1 of a two-step upload (`POST /ipfs/?size=`, `POST /api/v0/dag/import?size=`): never an empty address. */
export const UploadAddressSchema = object({
  url: pipe(string(), nonEmpty()),
});

/** `POST /api/v0/upload/cancel`. */
export const UploadCancelOutcomeSchema = object({
  outcome: picklist(['cancelled', 'stored', 'unknown']),
  roots: array(string()),
});
