import { object } from 'valibot';
import { describe, expect, it } from 'vitest';
import { integerField, textField } from '../../../main/http/input/fields.js';
import { PartnerKeyBody, PartnerKeyNameBody, PartnerPlanBody, PartnerUserCreateBody, PartnerUserQuery } from '../../../main/http/input/partner-input.js';
import { requestInput } from '../../../main/http/input/request-input.js';
import { refusalOf, type Refusal } from '../../helpers/request-refusal.js';

const UUID = '3f0e6a4e-0b7e-4d2c-9a51-6c8c1c2b8e11';

describe('partner request schemas', () => {
  it('creating a user: an e-mail address, a name and a uuid, each text of its own length, in that order', () => {
    const user = { email: 'ada@example.org', name: 'Ada', uuid: UUID };
    expect(requestInput(PartnerUserCreateBody, user)).toEqual(user);
    const refusals: [Record<string, unknown>, Refusal][] = [
      [{ email: undefined }, { msg: 'email is required', param: 'email' }],
      [{ email: 5 }, { msg: 'email must be a string', param: 'email' }],
      [{ email: '' }, { msg: 'email must not be empty', param: 'email' }],
      [{ email: `${'a'.repeat(310)}@example.org` }, { msg: 'email is too long', param: 'email' }],
      [{ email: 'ada at example.org' }, { msg: 'email is not an e-mail address', param: 'email' }],
      [{ email: 'ada@example' }, { msg: 'email is not an e-mail address', param: 'email' }],
      [{ name: null }, { msg: 'name is required', param: 'name' }],
      [{ name: 'x'.repeat(257) }, { msg: 'name is too long', param: 'name' }],
      [{ uuid: '' }, { msg: 'uuid must not be empty', param: 'uuid' }],
      [{ uuid: 'u'.repeat(129) }, { msg: 'uuid is too long', param: 'uuid' }],
      [
        { email: 'nope', name: '', uuid: '' },
        { msg: 'email is not an e-mail address', param: 'email' },
      ],
      [
        { name: '', uuid: '' },
        { msg: 'name must not be empty', param: 'name' },
      ],
    ];
    for (const [patch, refusal] of refusals)
      expect(refusalOf(PartnerUserCreateBody, { ...user, ...patch }), JSON.stringify(patch).slice(0, 60)).toEqual(refusal);
  });

  it('a user named in the query: some text', () => {
    expect(requestInput(PartnerUserQuery, { uuid: UUID })).toEqual({ uuid: UUID });
    for (const uuid of [undefined, '', [UUID, UUID]])
      expect(refusalOf(PartnerUserQuery, { uuid }), String(uuid)).toEqual({ msg: 'uuid is required', param: 'uuid' });
  });

  it("a user's plan: the uuid, then an integer plan_id", () => {
    expect(requestInput(PartnerPlanBody, { uuid: UUID, plan_id: 2 })).toEqual({ uuid: UUID, plan_id: 2 });
    expect(refusalOf(PartnerPlanBody, { plan_id: 2 })).toEqual({ msg: 'uuid is required', param: 'uuid' });
    expect(refusalOf(PartnerPlanBody, { uuid: UUID })).toEqual({ msg: 'plan_id is required', param: 'plan_id' });
    for (const plan_id of ['2', 1.5, Number('1e400')]) {
      expect(refusalOf(PartnerPlanBody, { uuid: UUID, plan_id }), String(plan_id)).toEqual({ msg: 'plan_id must be an integer', param: 'plan_id' });
    }
    // -0 reads as 0 (toBe compares with Object.is): SQLite would bind it as the real -0.0.
    expect(requestInput(PartnerPlanBody, { uuid: UUID, plan_id: -0 }).plan_id).toBe(0);
  });

  it("a user's key: the uuid, then the key's name and permissions as the account API takes them", () => {
    expect(requestInput(PartnerKeyBody, { uuid: UUID, name: 'ci', permissions: ['read', 'read'] })).toEqual({ uuid: UUID, name: 'ci', permissions: ['read'] });
    expect(refusalOf(PartnerKeyBody, { name: '', permissions: [] })).toEqual({ msg: 'uuid is required', param: 'uuid' });
    expect(refusalOf(PartnerKeyBody, { uuid: UUID, name: ' ', permissions: ['read'] })).toEqual({ msg: 'name must be a non-empty string', param: 'name' });
    expect(refusalOf(PartnerKeyBody, { uuid: UUID, name: 'ci', permissions: ['root'] }).param).toBe('permissions');
    expect(requestInput(PartnerKeyNameBody, { uuid: UUID, name: 'ci' })).toEqual({ uuid: UUID, name: 'ci' });
    expect(refusalOf(PartnerKeyNameBody, { uuid: UUID })).toEqual({ msg: 'name must be a non-empty string', param: 'name' });
  });

  it('the JSON body blocks it builds on: text and integer fields in the words json-body.ts used', () => {
    const Fields = object({ s: textField('s'), n: integerField('n') });
    expect(refusalOf(Fields, { s: 5, n: 1 })).toEqual({ msg: 's must be a string', param: 's' });
    for (const n of [Number('1e400'), Number('123456789012345678901234567890'), 1.5, '1']) {
      expect(refusalOf(Fields, { s: 'x', n }), String(n)).toEqual({ msg: 'n must be an integer', param: 'n' });
    }
    expect(refusalOf(Fields, { s: 'x' })).toEqual({ msg: 'n is required', param: 'n' });
  });
});
