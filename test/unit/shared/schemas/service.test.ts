import type { InferOutput } from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import type { GarbageCollection, NetworkSettingsView } from '../../../../shared/api-types.js';
import { GarbageCollectionSchema, NetworkSettingsViewSchema, ServiceFactsSchema, type CheckedServiceFacts } from '../../../../shared/schemas/service.js';
import * as legacy from './legacy-guards.js';
import { FACTS, GC, NETWORK } from './samples.js';
import { expectGuardVerdicts } from './variants.js';

describe('service schemas', () => {
  it('what the old guards accepted and refused; gc_leader is not checked', () => {
    expectGuardVerdicts(GarbageCollectionSchema, legacy.isGarbageCollection, GC);
    expectGuardVerdicts(ServiceFactsSchema, legacy.isServiceFacts, FACTS, ['gc_leader: *']);
    expectGuardVerdicts(NetworkSettingsViewSchema, legacy.isNetworkSettingsView, NETWORK);
  });

  it('are the wire types of shared/api-types.ts, less the unchecked field (a drift fails typecheck)', () => {
    expectTypeOf<InferOutput<typeof GarbageCollectionSchema>>().toEqualTypeOf<GarbageCollection>();
    expectTypeOf<InferOutput<typeof ServiceFactsSchema>>().toEqualTypeOf<CheckedServiceFacts>();
    expectTypeOf<InferOutput<typeof NetworkSettingsViewSchema>>().toEqualTypeOf<NetworkSettingsView>();
  });
});
