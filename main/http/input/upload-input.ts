import { custom, object, pipe, transform, unknown } from 'valibot';
import { field } from './fields.js';

/**
 * The request schemas of the two-step uploads (contract section 4; routes/uploads.ts, upload-step-two.ts).
 * What the signed address carries is checked against its signature (upload-address.ts), not here.
 */

/** `size` of a step 1: the payload's size in bytes, an integer of at most 15 digits. */
export const UploadSizeQuery = object({
  size: field(
    pipe(
      unknown(),
      custom<unknown>((value) => typeof value === 'string' && /^\d{1,15}$/.test(value), 'size is required: the payload size in bytes (integer)'),
      transform(Number),
    ),
  ),
});

/** `pin-roots` of a CAR import's step 1: anything but `false` pins the CAR's roots. */
export const CarImportPinQuery = object({
  'pin-roots': field(
    pipe(
      unknown(),
      transform((value) => value !== 'false'),
    ),
  ),
});

/** One part of an upload address as a query carries it: the text given once, else undefined. */
const addressPart = field(
  pipe(
    unknown(),
    transform((value) => (typeof value === 'string' ? value : undefined)),
  ),
);

/**
 * The address of a step 2 (`sargs`, `ssig`). It never refuses: the address alone authorizes a step 2, so one
 * without both parts is a 401 (upload-step-two.ts), not a 400.
 */
export const StepTwoAddressQuery = object({ sargs: addressPart, ssig: addressPart });

const cancelPart = field(
  pipe(
    unknown(),
    custom<unknown>((value) => typeof value === 'string', 'sargs and ssig are required: the upload address to cancel'),
    transform(String),
  ),
);

/** `POST /api/v0/upload/cancel?sargs=…&ssig=…`: the address whose upload is cancelled. */
export const UploadCancelQuery = object({ sargs: cancelPart, ssig: cancelPart });
