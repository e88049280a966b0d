import { is, type InferOutput } from 'valibot';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { PIN_STATUSES, type PinRecord, type PinStatus } from '../../../../shared/api-types.js';
import { PinRecordSchema, PinStatusSchema } from '../../../../shared/schemas/pins.js';
import * as legacy from './legacy-guards.js';
import { FETCHING_PIN, PIN } from './samples.js';
import { expectGuardVerdicts } from './variants.js';

describe('pin schemas', () => {
  it('statuses: the four words, nothing else', () => {
    for (const value of [...PIN_STATUSES, 'removed', 'Pinned', '', null, 0]) expect(is(PinStatusSchema, value), String(value)).toBe(legacy.isPinStatus(value));
    expect(PIN_STATUSES.every((status) => is(PinStatusSchema, status))).toBe(true);
  });

  it('pin records: what the old guard accepted and refused; a fetch is optional, its source may be null', () => {
    expectGuardVerdicts(PinRecordSchema, legacy.isPinRecord, PIN);
    expectGuardVerdicts(PinRecordSchema, legacy.isPinRecord, FETCHING_PIN, ['fetch: missing', 'fetch.source: null']);
  });

  it('are the wire types of shared/api-types.ts (a drift fails typecheck)', () => {
    expectTypeOf<InferOutput<typeof PinStatusSchema>>().toEqualTypeOf<PinStatus>();
    expectTypeOf<InferOutput<typeof PinRecordSchema>>().toEqualTypeOf<PinRecord>();
  });
});
