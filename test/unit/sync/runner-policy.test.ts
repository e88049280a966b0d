import { describe, expect, it } from 'vitest';
import { nextSteps, type RunnerStanding } from '../../../main/sync/runner-policy.js';

const timing = { rootRetryMs: 5_000, errorRetryMs: 10_000 };
const at = (state: RunnerStanding['state'], stopped = false): RunnerStanding => ({ state, stopped });
const abortError = (): Error => Object.assign(new Error('aborted'), { name: 'AbortError' });

describe('folder runner recovery policy', () => {
  it('a user rescan boots a halted folder again and rescans a live one', () => {
    expect(nextSteps(at('error'), { type: 'rescan-asked' }, timing)).toEqual([{ type: 'boot' }]);
    expect(nextSteps(at('paused'), { type: 'rescan-asked' }, timing)).toEqual([{ type: 'boot' }]);
    expect(nextSteps(at('idle'), { type: 'rescan-asked' }, timing)).toEqual([{ type: 'rescan-all' }]);
    expect(nextSteps(at('syncing'), { type: 'rescan-asked' }, timing)).toEqual([{ type: 'rescan-all' }]);
    expect(nextSteps(at('idle', true), { type: 'rescan-asked' }, timing)).toEqual([]);
  });

  it('a user retry boots only a folder in error or paused by the root rule', () => {
    expect(nextSteps(at('error'), { type: 'retry-asked' }, timing)).toEqual([{ type: 'boot' }]);
    expect(nextSteps(at('paused'), { type: 'retry-asked' }, timing)).toEqual([{ type: 'boot' }]);
    expect(nextSteps(at('idle'), { type: 'retry-asked' }, timing)).toEqual([]);
    expect(nextSteps(at('error', true), { type: 'retry-asked' }, timing)).toEqual([]);
  });

  it('a gone root pauses, then checks the root every rootRetryMs until it is back, and boots', () => {
    expect(nextSteps(at('syncing'), { type: 'root-gone', reason: 'unmounted' }, timing)).toEqual([{ type: 'pause', reason: 'unmounted' }]);
    expect(nextSteps(at('paused'), { type: 'paused' }, timing)).toEqual([{ type: 'retry-later', after: 'root-gone', ms: 5_000 }]);
    expect(nextSteps(at('paused', true), { type: 'paused' }, timing)).toEqual([]);
    expect(nextSteps(at('paused'), { type: 'retry-due', after: 'root-gone', current: true }, timing)).toEqual([{ type: 'check-root' }]);
    expect(nextSteps(at('paused'), { type: 'root-checked', ok: false }, timing)).toEqual([{ type: 'retry-later', after: 'root-gone', ms: 5_000 }]);
    expect(nextSteps(at('paused'), { type: 'root-checked', ok: true }, timing)).toEqual([{ type: 'boot' }]);
  });

  it('a failure of the current boot puts the folder in error and boots again after errorRetryMs', () => {
    const error = new Error('disk full');
    expect(nextSteps(at('syncing'), { type: 'failed', error, current: true }, timing)).toEqual([{ type: 'fail', error, message: 'disk full' }]);
    expect(nextSteps(at('syncing'), { type: 'failed', error: 'odd', current: true }, timing)).toEqual([{ type: 'fail', error: 'odd', message: 'odd' }]);
    expect(nextSteps(at('error'), { type: 'errored' }, timing)).toEqual([{ type: 'retry-later', after: 'error', ms: 10_000 }]);
    expect(nextSteps(at('error'), { type: 'retry-due', after: 'error', current: true }, timing)).toEqual([{ type: 'boot' }]);
  });

  it('an aborted batch, work of an older boot, and anything after stop decide nothing', () => {
    expect(nextSteps(at('syncing'), { type: 'failed', error: abortError(), current: true }, timing)).toEqual([]);
    expect(nextSteps(at('syncing'), { type: 'failed', error: new Error('x'), current: false }, timing)).toEqual([]);
    expect(nextSteps(at('syncing', true), { type: 'failed', error: new Error('x'), current: true }, timing)).toEqual([]);
    expect(nextSteps(at('error'), { type: 'retry-due', after: 'error', current: false }, timing)).toEqual([]);
    expect(nextSteps(at('paused', true), { type: 'retry-due', after: 'root-gone', current: true }, timing)).toEqual([]);
  });
});
