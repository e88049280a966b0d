import { describe, expect, it } from 'vitest';
import { pinStatusesFor, psaStatusOf } from '../../../main/pins/psa-status.js';

describe('PSA statuses (contract section 11)', () => {
  it('maps pin statuses: pinning is queued until its fetch hears from a source; unpinning is gone', () => {
    expect(psaStatusOf('pinning', false)).toBe('queued');
    expect(psaStatusOf('pinning', true)).toBe('pinning');
    expect(psaStatusOf('pinned', true)).toBe('pinned');
    expect(psaStatusOf('failure', false)).toBe('failed');
    expect(psaStatusOf('unpinning', false)).toBeNull();
  });

  it('asks the store for the pin statuses a PSA filter can show', () => {
    expect(pinStatusesFor(['queued', 'pinning'])).toEqual(['pinning']);
    expect(pinStatusesFor(['failed', 'pinned', 'queued'])).toEqual(['failure', 'pinned', 'pinning']);
    expect(pinStatusesFor([])).toEqual([]);
  });
});
