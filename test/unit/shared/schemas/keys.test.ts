import { is, type InferOutput } from 'valibot';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { PERMISSIONS, type AccessKeyListing, type AccessKeyView, type NewAccessKey, type Permission } from '../../../../shared/api-types.js';
import { AccessKeyListingSchema, AccessKeyViewSchema, NewAccessKeySchema, PermissionSchema } from '../../../../shared/schemas/keys.js';
import * as legacy from './legacy-guards.js';
import { KEY, LISTING, NEW_KEY, SESSION_KEY_ROW } from './samples.js';
import { expectGuardVerdicts } from './variants.js';

/** Each member of a union with its intersections spelled out as one object, as a schema's output is. */
type Flat<T> = T extends unknown ? { [K in keyof T]: T[K] } : never;

describe('key schemas', () => {
  it('permissions: the five words, nothing else', () => {
    for (const value of [...PERMISSIONS, 'ADMIN', 'fly', '', null, 1, ['read']])
      expect(is(PermissionSchema, value), String(value)).toBe(legacy.isPermission(value));
    expect(PERMISSIONS.every((permission) => is(PermissionSchema, permission))).toBe(true);
  });

  it('key rows: what the old guards accepted and refused; only a session key needs its expiry', () => {
    expectGuardVerdicts(AccessKeyListingSchema, legacy.isAccessKeyListing, LISTING);
    expectGuardVerdicts(AccessKeyViewSchema, legacy.isAccessKeyView, KEY);
    expectGuardVerdicts(AccessKeyViewSchema, legacy.isAccessKeyView, SESSION_KEY_ROW);
    expectGuardVerdicts(NewAccessKeySchema, legacy.isNewAccessKey, NEW_KEY);
  });

  it('are the wire types of shared/api-types.ts (a drift fails typecheck)', () => {
    expectTypeOf<InferOutput<typeof PermissionSchema>>().toEqualTypeOf<Permission>();
    expectTypeOf<InferOutput<typeof AccessKeyListingSchema>>().toEqualTypeOf<AccessKeyListing>();
    expectTypeOf<InferOutput<typeof AccessKeyViewSchema>>().toEqualTypeOf<Flat<AccessKeyView>>();
    expectTypeOf<InferOutput<typeof NewAccessKeySchema>>().toEqualTypeOf<NewAccessKey>();
  });
});
