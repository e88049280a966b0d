import { describe, expectTypeOf, it } from 'vitest';
import type { StoredPinStatus } from '../../../main/store/repositories/pins.js';
import type { PinStatus } from '../../../shared/api-types.js';

/**
 * Storage imports no API types (docs/architecture.md), so a pin's stored status is a type of its own; the
 * pins domain hands rows' statuses to the API as they are, which holds only while both say the same words.
 * Checked by the type checker (`npm run typecheck`): a word added to one side only fails there.
 */
describe('pin statuses', () => {
  it('are the same words in storage and in the API', () => {
    expectTypeOf<StoredPinStatus>().toEqualTypeOf<PinStatus>();
  });
});
