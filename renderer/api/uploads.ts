import { is } from 'valibot';
import type { UploadAddress, UploadCancelOutcome, UploadSettings } from '../../shared/api-types.js';
import { UploadAddressSchema, UploadCancelOutcomeSchema, UploadSettingsSchema } from '../../shared/schemas/uploads.js';
import type { ApiCore } from './core.js';

/**
 * Step 1 of the two-step uploads (contract section 4) and what the Files page needs to build content the
 * way the service would. Step 2 (sending the bytes to the signed address, with progress and cancel) is
 * the page's: it needs XMLHttpRequest, which fetch cannot replace for upload progress.
 */
export interface UploadsApi {
  /** GET /api/v0/upload/settings (extension): the account, the CID profile, whether the gateway is public. */
  settings(signal?: AbortSignal): Promise<UploadSettings>;
  /** Step 1 of `POST /ipfs/?size=N`: the signed address one file's `size` bytes go to. Reserves `size` of ingress. */
  fileAddress(size: number, signal?: AbortSignal): Promise<string>;
  /**
   * Step 1 of `POST /api/v0/dag/import?size=N&pin-roots=false`: the signed address a CAR of `size` bytes goes
   * to. The roots are not pinned there: the page pins them itself, with a name.
   */
  carAddress(size: number, signal?: AbortSignal): Promise<string>;
  /**
   * `POST /api/v0/upload/cancel` (extension) for a step-2 address: the upload cancelled if it had not
   * committed (then nothing of it is stored or counted), else what it stored. The address authorizes it.
   */
  cancel(address: string, signal?: AbortSignal): Promise<UploadCancelOutcome>;
}

export function uploadsApi(core: ApiCore): UploadsApi {
  return {
    settings: (signal) => core.data({ path: '/api/v0/upload/settings', signal }, isUploadSettings, 'the upload settings'),
    fileAddress: async (size, signal) =>
      (await core.data({ method: 'POST', path: '/ipfs/', signal, query: { size } }, isUploadAddress, 'an upload address')).url,
    carAddress: async (size, signal) =>
      (await core.data({ method: 'POST', path: '/api/v0/dag/import', signal, query: { size, 'pin-roots': false } }, isUploadAddress, 'an upload address')).url,
    cancel: (address, signal) => {
      const { searchParams } = new URL(address);
      const query = { sargs: searchParams.get('sargs') ?? undefined, ssig: searchParams.get('ssig') ?? undefined };
      return core.data(
        { method: 'POST', path: '/api/v0/upload/cancel', keyless: true, query, signal },
        isUploadCancelOutcome,
        'the outcome of a cancelled upload',
      );
    },
  };
}

export const isUploadCancelOutcome = (value: unknown): value is UploadCancelOutcome => is(UploadCancelOutcomeSchema, value);
export const isUploadSettings = (value: unknown): value is UploadSettings => is(UploadSettingsSchema, value);
const isUploadAddress = (value: unknown): value is UploadAddress => is(UploadAddressSchema, value);
