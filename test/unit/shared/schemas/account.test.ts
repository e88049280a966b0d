import type { InferOutput } from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import type { DailyUsage, Plan } from '../../../../shared/api-types.js';
import {
  AccountUsageSchema,
  DailyUsageSchema,
  PartnerUserUsageSchema,
  PlanSchema,
  type CheckedAccountUsage,
  type CheckedPartnerUserUsage,
} from '../../../../shared/schemas/account.js';
import * as legacy from './legacy-guards.js';
import { DAY, PLAN, USAGE } from './samples.js';
import { expectGuardVerdicts } from './variants.js';

const UNCHECKED = ['provider: *', 'email: *', 'email_verified: *', 'next_plan: *', 'eth_addr: *', 'token_amount: *'];

describe('account schemas', () => {
  it('usage: what the old guard accepted and refused; the fields the window does not check may be anything or missing', () => {
    expectGuardVerdicts(PartnerUserUsageSchema, legacy.isPartnerUserUsage, USAGE, UNCHECKED);
    expectGuardVerdicts(AccountUsageSchema, legacy.isAccountUsage, USAGE, UNCHECKED);
  });

  it('plans and days: what the old guards accepted and refused (a day is YYYY-MM-DD)', () => {
    expectGuardVerdicts(PlanSchema, legacy.isPlan, PLAN);
    expectGuardVerdicts(DailyUsageSchema, legacy.isDailyUsage, DAY);
  });

  it('are the wire types of shared/api-types.ts, less the unchecked fields (a drift fails typecheck)', () => {
    expectTypeOf<InferOutput<typeof PartnerUserUsageSchema>>().toEqualTypeOf<CheckedPartnerUserUsage>();
    expectTypeOf<InferOutput<typeof AccountUsageSchema>>().toEqualTypeOf<CheckedAccountUsage>();
    expectTypeOf<InferOutput<typeof PlanSchema>>().toEqualTypeOf<Plan>();
    expectTypeOf<InferOutput<typeof DailyUsageSchema>>().toEqualTypeOf<DailyUsage>();
  });
});
