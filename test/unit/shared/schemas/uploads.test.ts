import type { InferOutput } from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import type { UploadAddress, UploadCancelOutcome, UploadSettings } from '../../../../shared/api-types.js';
import { UploadAddressSchema, UploadCancelOutcomeSchema, UploadSettingsSchema } from '../../../../shared/schemas/uploads.js';
import * as legacy from './legacy-guards.js';
import { CANCELLED, UPLOAD_ADDRESS, UPLOAD_SETTINGS } from './samples.js';
import { expectGuardVerdicts } from './variants.js';

describe('upload schemas', () => {
  it('what the old guards accepted and refused (an empty address among the refused)', () => {
    expectGuardVerdicts(UploadSettingsSchema, legacy.isUploadSettings, UPLOAD_SETTINGS);
    expectGuardVerdicts(UploadAddressSchema, legacy.isUploadAddress, UPLOAD_ADDRESS);
    expectGuardVerdicts(UploadCancelOutcomeSchema, legacy.isUploadCancelOutcome, CANCELLED);
  });

  it('are the wire types of shared/api-types.ts (a drift fails typecheck)', () => {
    expectTypeOf<InferOutput<typeof UploadSettingsSchema>>().toEqualTypeOf<UploadSettings>();
    expectTypeOf<InferOutput<typeof UploadAddressSchema>>().toEqualTypeOf<UploadAddress>();
    expectTypeOf<InferOutput<typeof UploadCancelOutcomeSchema>>().toEqualTypeOf<UploadCancelOutcome>();
  });
});
