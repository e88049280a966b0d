import type { InferOutput } from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import type { SyncRestoreResult, SyncVersion, SyncVersionDiff, SyncVersionDirectory } from '../../../../shared/api-types.js';
import { SyncRestoreResultSchema, SyncVersionDiffSchema, SyncVersionDirectorySchema, SyncVersionSchema } from '../../../../shared/schemas/sync-versions.js';
import * as legacy from './legacy-guards.js';
import { DIFF, DIRECTORY, RESTORED, VERSION } from './samples.js';
import { expectGuardVerdicts } from './variants.js';

describe('sync version schemas', () => {
  it('versions, differences, directories and restores: what the old guards accepted and refused', () => {
    expectGuardVerdicts(SyncVersionSchema, legacy.isSyncVersion, VERSION);
    expectGuardVerdicts(SyncVersionDiffSchema, legacy.isSyncVersionDiff, DIFF);
    expectGuardVerdicts(SyncVersionDirectorySchema, legacy.isSyncVersionDirectory, DIRECTORY);
    expectGuardVerdicts(SyncRestoreResultSchema, legacy.isSyncRestoreResult, RESTORED);
  });

  it('are the wire types of shared/api-types.ts (a drift fails typecheck)', () => {
    expectTypeOf<InferOutput<typeof SyncVersionSchema>>().toEqualTypeOf<SyncVersion>();
    expectTypeOf<InferOutput<typeof SyncVersionDiffSchema>>().toEqualTypeOf<SyncVersionDiff>();
    expectTypeOf<InferOutput<typeof SyncVersionDirectorySchema>>().toEqualTypeOf<SyncVersionDirectory>();
    expectTypeOf<InferOutput<typeof SyncRestoreResultSchema>>().toEqualTypeOf<SyncRestoreResult>();
  });
});
