import type { InferOutput } from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import type { PartnerUserSummary } from '../../../../shared/api-types.js';
import { PartnerUserSummarySchema } from '../../../../shared/schemas/partners.js';
import * as legacy from './legacy-guards.js';
import { PARTNER_USER } from './samples.js';
import { expectGuardVerdicts } from './variants.js';

describe('partner schemas', () => {
  it('a partner user row: what the old guard accepted and refused', () => {
    expectGuardVerdicts(PartnerUserSummarySchema, legacy.isPartnerUserSummary, PARTNER_USER);
  });

  it('is the wire type of shared/api-types.ts (a drift fails typecheck)', () => {
    expectTypeOf<InferOutput<typeof PartnerUserSummarySchema>>().toEqualTypeOf<PartnerUserSummary>();
  });
});
