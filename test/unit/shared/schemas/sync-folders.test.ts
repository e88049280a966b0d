import { is, type InferOutput } from 'valibot';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  SYNC_STATES,
  type SyncAddResult,
  type SyncDiscardResult,
  type SyncFolderDetail,
  type SyncFolderView,
  type SyncRetention,
  type SyncState,
} from '../../../../shared/api-types.js';
import {
  SyncAddResultSchema,
  SyncDiscardResultSchema,
  SyncFolderDetailSchema,
  SyncFolderViewSchema,
  SyncRetentionSchema,
  SyncStateSchema,
} from '../../../../shared/schemas/sync-folders.js';
import * as legacy from './legacy-guards.js';
import { ADDED, DISCARDED, FOLDER, FOLDER_DETAIL, RETENTION } from './samples.js';
import { expectGuardVerdicts } from './variants.js';

describe('sync folder schemas', () => {
  it('states: the five words, nothing else', () => {
    for (const value of [...SYNC_STATES, 'sleeping', 'Idle', '', null, 0]) expect(is(SyncStateSchema, value), String(value)).toBe(legacy.isSyncState(value));
    expect(SYNC_STATES.every((state) => is(SyncStateSchema, state))).toBe(true);
  });

  it('a folder and its detail: what the old guards accepted and refused; no conflict is null, no .pinfoldignore is null', () => {
    expectGuardVerdicts(SyncFolderViewSchema, legacy.isSyncFolderView, FOLDER, ['conflict: null']);
    expectGuardVerdicts(SyncFolderDetailSchema, legacy.isSyncFolderDetail, FOLDER_DETAIL, ['conflict: null', 'pinfoldignore: null']);
  });

  it('the answers of add, discard and retention: what the old guards accepted and refused; add answers a state only with wait=false', () => {
    expectGuardVerdicts(SyncAddResultSchema, legacy.isSyncAddResult, ADDED, ['state: missing']);
    expectGuardVerdicts(SyncDiscardResultSchema, legacy.isSyncDiscardResult, DISCARDED);
    expectGuardVerdicts(SyncRetentionSchema, legacy.isRetentionAnswer, RETENTION);
  });

  it('are the wire types of shared/api-types.ts (a drift fails typecheck)', () => {
    expectTypeOf<InferOutput<typeof SyncStateSchema>>().toEqualTypeOf<SyncState>();
    expectTypeOf<InferOutput<typeof SyncFolderViewSchema>>().toEqualTypeOf<SyncFolderView>();
    expectTypeOf<InferOutput<typeof SyncFolderDetailSchema>>().toEqualTypeOf<SyncFolderDetail>();
    expectTypeOf<InferOutput<typeof SyncAddResultSchema>>().toEqualTypeOf<SyncAddResult>();
    expectTypeOf<InferOutput<typeof SyncDiscardResultSchema>>().toEqualTypeOf<SyncDiscardResult>();
    expectTypeOf<InferOutput<typeof SyncRetentionSchema>>().toEqualTypeOf<SyncRetention>();
  });
});
