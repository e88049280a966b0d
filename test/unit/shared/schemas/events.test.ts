import type { InferOutput } from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import type { ServiceEventName, ServiceEvents } from '../../../../shared/api-types.js';
import type { CheckedAccountUsage } from '../../../../shared/schemas/account.js';
import { ServiceEventSchemas } from '../../../../shared/schemas/events.js';
import * as legacy from './legacy-guards.js';
import { FETCHING_PIN, FOLDER, NAME, USAGE } from './samples.js';
import { expectGuardVerdicts } from './variants.js';

type Payload<T extends ServiceEventName> = InferOutput<(typeof ServiceEventSchemas)[T]>;

describe('event schemas', () => {
  it('records and their removals: what the old guards accepted and refused', () => {
    expectGuardVerdicts(ServiceEventSchemas.usage, legacy.EVENT_GUARDS.usage, USAGE, [
      'provider: *',
      'email: *',
      'email_verified: *',
      'next_plan: *',
      'eth_addr: *',
      'token_amount: *',
    ]);
    expectGuardVerdicts(ServiceEventSchemas.pin, legacy.EVENT_GUARDS.pin, FETCHING_PIN, ['fetch: missing', 'fetch.source: null']);
    expectGuardVerdicts(ServiceEventSchemas.pin, legacy.EVENT_GUARDS.pin, { cid: 'bafy', removed: true });
    expectGuardVerdicts(ServiceEventSchemas.name, legacy.EVENT_GUARDS.name, NAME);
    expectGuardVerdicts(ServiceEventSchemas.name, legacy.EVENT_GUARDS.name, { name: 'k51', removed: true });
    expectGuardVerdicts(ServiceEventSchemas.sync, legacy.EVENT_GUARDS.sync, FOLDER, ['conflict: null']);
    expectGuardVerdicts(ServiceEventSchemas.sync, legacy.EVENT_GUARDS.sync, { id: 'f1', removed: true });
  });

  it('key and partner notices: what the old guards accepted and refused; a created key has no `removed`', () => {
    expectGuardVerdicts(ServiceEventSchemas.key, legacy.EVENT_GUARDS.key, { access_key: 'AKey1', removed: true }, ['removed: missing']);
    expectGuardVerdicts(ServiceEventSchemas.partner, legacy.EVENT_GUARDS.partner, { uuid: 'u1' });
  });

  it('are the payload types of ServiceEvents, less the usage fields not checked (a drift fails typecheck)', () => {
    expectTypeOf<Payload<'usage'>>().toEqualTypeOf<CheckedAccountUsage>();
    expectTypeOf<Payload<'pin'>>().toEqualTypeOf<ServiceEvents['pin']>();
    expectTypeOf<Payload<'name'>>().toEqualTypeOf<ServiceEvents['name']>();
    expectTypeOf<Payload<'key'>>().toEqualTypeOf<ServiceEvents['key']>();
    expectTypeOf<Payload<'sync'>>().toEqualTypeOf<ServiceEvents['sync']>();
    expectTypeOf<Payload<'partner'>>().toEqualTypeOf<ServiceEvents['partner']>();
  });
});
