/** The Keys and Partners pages' pure rules: permission choices, new key and user checks, key lists, money and plan changes. */
import { describe, expect, it } from 'vitest';
import { checkNewKey, deletionRefusal, MAX_KEY_NAME_LENGTH, splitKeys } from '../../../renderer/lib/access-keys.js';
import { formatMoney, parseMoney, quotePlanChange } from '../../../renderer/lib/money.js';
import { checkNewUser, compareLimits, otherPlans, partnersHref } from '../../../renderer/lib/partner-users.js';
import {
  describePermissions,
  isGranted,
  NO_PERMISSIONS,
  orderedPermissions,
  permissionsToSend,
  togglePermission,
  type PermissionChoice,
} from '../../../renderer/lib/permissions.js';
import { PERMISSIONS, type AccessKeyView, type Plan } from '../../../shared/api-types.js';
import { USAGE } from './fixtures.js';

const granted = (choice: PermissionChoice) => PERMISSIONS.filter((permission) => isGranted(choice, permission));

describe('permission choices', () => {
  it('admin grants every box while ticked, and gives back the own choice when unticked', () => {
    let choice = togglePermission(NO_PERMISSIONS, 'pin', true);
    choice = togglePermission(choice, 'read', true);
    expect(permissionsToSend(choice)).toEqual(['read', 'pin']);
    choice = togglePermission(choice, 'admin', true);
    expect(granted(choice)).toEqual(['admin', 'read', 'write', 'pin', 'unpin']);
    expect(permissionsToSend(choice)).toEqual(['admin']);
    // Below admin nothing moves while admin is ticked.
    expect(togglePermission(choice, 'read', false)).toBe(choice);
    choice = togglePermission(choice, 'admin', false);
    expect(granted(choice)).toEqual(['read', 'pin']);
    choice = togglePermission(choice, 'read', false);
    expect(permissionsToSend(choice)).toEqual(['pin']);
    expect(permissionsToSend(NO_PERMISSIONS)).toEqual([]);
  });

  it('orders and describes a listed key', () => {
    expect(orderedPermissions(['unpin', 'read', 'read'])).toEqual(['read', 'unpin']);
    expect(orderedPermissions(['pin', 'admin'])).toEqual(['admin']);
    expect(describePermissions(['admin'])).toBe('Admin (all permissions)');
    expect(describePermissions(['pin', 'read', 'write'])).toBe('Read, Write and Pin');
    expect(describePermissions(['unpin'])).toBe('Unpin');
    expect(describePermissions([])).toBe('None');
  });
});

describe('checkNewKey', () => {
  const read = togglePermission(NO_PERMISSIONS, 'read', true);

  it('accepts a trimmed, unused name with at least one permission', () => {
    expect(checkNewKey('  ci deploy ', read, ['other'])).toEqual({ ok: true, name: 'ci deploy', permissions: ['read'] });
    expect(checkNewKey('x'.repeat(MAX_KEY_NAME_LENGTH), togglePermission(NO_PERMISSIONS, 'admin', true), [])).toMatchObject({
      ok: true,
      permissions: ['admin'],
    });
  });

  it('says what is wrong with each field: empty, too long, taken, no permission', () => {
    expect(checkNewKey('   ', NO_PERMISSIONS, [])).toEqual({
      ok: false,
      errors: { name: 'Enter a name for the key, such as the script or app that will use it.', permissions: 'Choose at least one permission.' },
    });
    expect(checkNewKey('x'.repeat(MAX_KEY_NAME_LENGTH + 1), read, [])).toEqual({
      ok: false,
      errors: { name: 'Use at most 128 characters (this name has 129).' },
    });
    expect(checkNewKey('ci ', read, ['ci'])).toEqual({ ok: false, errors: { name: 'A key named “ci” already exists. Names are unique within an account.' } });
  });
});

describe('key lists', () => {
  const keys: AccessKeyView[] = [
    { name: 'Browser session 2026-01-02 10:00 UTC', access_key: 's2', permissions: ['admin'], session: true, expires_at: 200 },
    { name: 'ci', access_key: 'k1', permissions: ['read'], session: false },
    { name: 'Browser session 2026-01-01 10:00 UTC', access_key: 's1', permissions: ['admin'], session: true, expires_at: 100 },
    { name: 'owner', access_key: 'k0', permissions: ['admin'], session: false },
  ];

  it('puts browser sessions apart, each list in the order the service gave', () => {
    const { keys: ordinary, sessions } = splitKeys(keys);
    expect(ordinary.map((key) => key.access_key)).toEqual(['k1', 'k0']);
    expect(sessions.map((key) => key.access_key)).toEqual(['s2', 's1']);
  });

  it('refuses to delete the key or session the window is signed in with, and nothing else', () => {
    expect(deletionRefusal({ name: 'owner', access_key: 'k0', session: false }, 'k0')).toMatch(
      /^This window is signed in with “owner”, so it cannot delete it\./,
    );
    expect(deletionRefusal({ name: 'Browser session x', access_key: 's1', session: true }, 's1')).toBe(
      "“Browser session x” is this window's own session. To end it, use Sign out at the top right.",
    );
    expect(deletionRefusal({ name: 'ci', access_key: 'k1', session: false }, 'k0')).toBeNull();
    expect(deletionRefusal({ name: 'Browser session x', access_key: 's1', session: true }, 's2')).toBeNull();
  });
});

describe('money', () => {
  it('reads amounts as whole cents and writes them with two decimals', () => {
    expect(parseMoney('1000.00')).toBe(100_000);
    expect(parseMoney('4.99')).toBe(499);
    expect(parseMoney('12.5')).toBe(1250);
    expect(parseMoney(' 7 ')).toBe(700);
    for (const bad of ['', '-1.00', '1.234', '1,000.00', 'abc', '1e3', '.5']) expect(parseMoney(bad)).toBeNull();
    expect(formatMoney(100_000)).toBe('1,000.00');
    expect(formatMoney(1)).toBe('0.01');
    expect(formatMoney(-499)).toBe('−4.99');
  });

  it('quotes a plan change: the fee, the balance it leaves, whether it is covered (exactly, in cents)', () => {
    expect(quotePlanChange('10.00', '9.99')).toEqual({ feeCents: 999, balanceCents: 1000, afterCents: 1, covered: true });
    expect(quotePlanChange('9.99', '9.99')).toMatchObject({ afterCents: 0, covered: true });
    expect(quotePlanChange('5.01', '9.99')).toMatchObject({ afterCents: -498, covered: false });
    expect(quotePlanChange('lots', '9.99')).toBeNull();
  });
});

describe('partner users', () => {
  it('checks a new user as partner/user/create will, field by field, trimmed', () => {
    expect(checkNewUser({ name: ' Ada ', email: ' ada@example.com', uuid: ' u-1 ' })).toEqual({
      ok: true,
      user: { name: 'Ada', email: 'ada@example.com', uuid: 'u-1' },
    });
    expect(checkNewUser({ name: '', email: 'ada', uuid: ' ' })).toEqual({
      ok: false,
      errors: {
        name: "Enter the user's name.",
        email: 'Enter an e-mail address such as name@example.com.',
        uuid: 'Enter an ID for the user, such as the one your own system knows it by.',
      },
    });
    expect(checkNewUser({ name: 'x'.repeat(257), email: `${'a'.repeat(320)}@b.c`, uuid: 'u'.repeat(129) })).toEqual({
      ok: false,
      errors: { name: 'Use at most 256 characters.', email: 'Enter an e-mail address such as name@example.com.', uuid: 'Use at most 128 characters.' },
    });
    expect(checkNewUser({ name: 'Ada', email: '', uuid: 'u' })).toEqual({ ok: false, errors: { email: "Enter the user's e-mail address." } });
  });

  const GiB = 1024 ** 3;
  const free: Plan = {
    id: 1,
    name: 'Free',
    price: '0.00',
    pinned_count_limit: 100,
    pinned_bytes_limit: GiB,
    ingress_limit: 5 * GiB,
    egress_limit: 5 * GiB,
    ipns_limit: 3,
  };
  const pro: Plan = {
    id: 3,
    name: 'Pro',
    price: '9.99',
    pinned_count_limit: 10_000,
    pinned_bytes_limit: 100 * GiB,
    ingress_limit: 5 * GiB,
    egress_limit: 50 * GiB,
    ipns_limit: 1,
  };

  it('compares the limits of the plan a user is on with another', () => {
    const onFree = { ...USAGE, plan: 'Free', pinned_count_limit: 100, pinned_bytes_limit: GiB, ingress_limit: 5 * GiB, egress_limit: 5 * GiB, ipns_limit: 3 };
    expect(compareLimits(onFree, pro)).toEqual([
      { label: 'Pins', now: '100', after: '10,000', change: 'up' },
      { label: 'Pinned storage', now: '1 GiB', after: '100 GiB', change: 'up' },
      { label: 'Uploads a month', now: '5 GiB', after: '5 GiB', change: 'same' },
      { label: 'Downloads a month', now: '5 GiB', after: '50 GiB', change: 'up' },
      { label: 'IPNS names', now: '3', after: '1', change: 'down' },
    ]);
    expect(compareLimits(USAGE, free)[0]).toEqual({ label: 'Pins', now: 'Unlimited', after: '100', change: 'down' });
    expect(otherPlans([free, pro], 'Free')).toEqual([pro]);
  });

  it('links to one user and back to the list, keeping the page and size', () => {
    const params = new URLSearchParams('page=3&size=50');
    expect(partnersHref(params, 'u 1/x')).toBe('/partners?page=3&size=50&user=u+1%2Fx');
    expect(partnersHref(new URLSearchParams('page=3&user=u1'), null)).toBe('/partners?page=3');
    expect(partnersHref(new URLSearchParams('user=u1'), null)).toBe('/partners');
  });
});
