import type { InferOutput } from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import type { IpnsRecordView, NameBinding } from '../../../../shared/api-types.js';
import { IpnsRecordViewSchema, NameBindingSchema } from '../../../../shared/schemas/names.js';
import * as legacy from './legacy-guards.js';
import { BINDING, NAME } from './samples.js';
import { expectGuardVerdicts } from './variants.js';

describe('name schemas', () => {
  it('what the old guards accepted and refused', () => {
    expectGuardVerdicts(IpnsRecordViewSchema, legacy.isIpnsRecordView, NAME);
    expectGuardVerdicts(NameBindingSchema, legacy.isNameBinding, BINDING);
  });

  it('are the wire types of shared/api-types.ts (a drift fails typecheck)', () => {
    expectTypeOf<InferOutput<typeof IpnsRecordViewSchema>>().toEqualTypeOf<IpnsRecordView>();
    expectTypeOf<InferOutput<typeof NameBindingSchema>>().toEqualTypeOf<NameBinding>();
  });
});
