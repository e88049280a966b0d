import { unmarshalIPNSRecord } from 'ipns';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BadInputError, ConflictError, LimitReachedError, NotFoundError } from '../../../main/base/errors.js';
import type { NamesContext } from '../../../main/names/context.js';
import { parseIpnsName, peerIdText } from '../../../main/names/name-parse.js';
import { resolveName } from '../../../main/names/resolver.js';
import { gatewayNameResolver } from '../../../main/http/gateway/index.js';
import { createName, getName, importName, listNames, publishName, removeName, searchByAlias, setAlias } from './name-requests.js';
import { addAccount, namesContext, tempDb, type TestDb, CLOCK_START_MS } from './helpers.js';
import { fixture, fixtureJson } from '../../helpers/fixtures.js';
import { manualClock } from '../../helpers/manual-clock.js';
import { SQLITE_QUERIES } from '../../../main/store/db/queries.js';

const { countNamesOf, nameByName } = SQLITE_QUERIES.names;

const { usageOf } = SQLITE_QUERIES.usage;

const CID_A = 'bafkreicysg23kiwv34eg2d7qweipxwosdo2py4ldv42nbauguluen5v6am';
const CID_B = 'bafybeig6ka5mlwkl4subqhaiatalkcleo4jgnr3hqwvpmsqfca27cijp3i';
const CID_V0 = 'QmZULkCELmmk5XNfCgTnCyFgAVxBRBXyDHGGMVoLFLiXEN';
const KUBO_ED25519 = 'k51qzi5uqu5dgh881t0hm6pfpev7wmidy6m8z3fzl4vxajkfkyd5zfjif5dhkx';
const KUBO_RSA = 'k2k4r8mkca4941pr2i9ge0gyd4v3ntklvk83thdr1uo191jvjjffh05z';

let t: TestDb;
let clock: ReturnType<typeof manualClock>;
let ctx: NamesContext;
let alice: number;
let bob: number;

beforeEach(() => {
  t = tempDb();
  clock = manualClock(CLOCK_START_MS);
  ctx = namesContext(t.db, { clock, limit: 3 });
  alice = addAccount(t.db);
  bob = addAccount(t.db);
});
afterEach(() => t.cleanup());

const ipnsCount = (accountId: number) => usageOf(t.db, accountId).ipnsCount;
const edPem = () => fixture('kubo/test/cli/testdata/openssl_ed25519.pem').toString('utf8');
const rsaPem = () => fixture('kubo/test/cli/testdata/openssl_rsa.pem').toString('utf8');

async function seqOf(name: string): Promise<bigint> {
  const resolution = await resolveName(ctx, name);
  return unmarshalIPNSRecord(resolution.record ?? new Uint8Array()).sequence;
}

describe('create and publish', () => {
  it('creates an Ed25519 name with a seq-0 record, counts it, and resolves it at once', async () => {
    const created = await createName(ctx, alice, CID_A, 'home');
    expect(created.name).toMatch(/^k51qzi5uqu5d/);
    expect(created.value).toBe(CID_A);
    expect(ipnsCount(alice)).toBe(1);
    const resolution = await resolveName(ctx, created.name);
    expect(resolution.cid.toString()).toBe(CID_A);
    expect(resolution.path).toBe('');
    expect(resolution.ttlSeconds).toBe(300);
    expect(await seqOf(created.name)).toBe(0n);
    expect(await getName(ctx, alice, created.name)).toEqual({
      name: created.name,
      value: CID_A,
      alias: 'home',
      created_at: Math.floor(clock.nowMs() / 1000),
      publish_at: Math.floor(clock.nowMs() / 1000),
      public: false,
    });
  });

  it('publish increments the sequence, updates publish_at, and the new value is visible immediately', async () => {
    const { name } = await createName(ctx, alice, CID_A);
    await resolveName(ctx, name); // warm the cache
    clock.advance(5_000);
    const published = await publishName(ctx, alice, name, CID_B);
    expect(published).toEqual({ name, value: CID_B });
    expect((await resolveName(ctx, name)).cid.toString()).toBe(CID_B);
    expect(await seqOf(name)).toBe(1n);
    await publishName(ctx, alice, peerIdText(parseIpnsName(name, 'key')), CID_V0);
    expect(await seqOf(name)).toBe(2n);
    const view = await getName(ctx, alice, name);
    expect(view.value).toBe(CID_V0);
    expect(view.publish_at).toBe(view.created_at + 5);
    // The record itself carries CIDv1, as the ipns package writes CIDs.
    expect((await resolveName(ctx, name)).value).toBe('/ipfs/bafybeiffndsajwhk3lwjewwdxqntmjm4b5wxaaanokonsggenkbw6slwk4');
  });

  it('serializes concurrent publishes of one name: every record gets its own sequence', async () => {
    const { name } = await createName(ctx, alice, CID_A);
    await Promise.all([publishName(ctx, alice, name, CID_B), publishName(ctx, alice, name, CID_A), publishName(ctx, alice, name, CID_B)]);
    expect(nameByName(t.db, name)?.seq).toBe(3);
    expect(await seqOf(name)).toBe(3n);
  });

  it('after the first read, resolution is served from the cache (same object), until a publish replaces it', async () => {
    const { name } = await createName(ctx, alice, CID_A);
    const first = await resolveName(ctx, name);
    expect(await resolveName(ctx, name)).toBe(first);
    await publishName(ctx, alice, name, CID_B);
    const second = await resolveName(ctx, name);
    expect(second).not.toBe(first);
    expect(second.cid.toString()).toBe(CID_B);
  });

  it("the gateway's view of a cached name is the same object, not a promise, until a publish replaces it", async () => {
    const { name } = await createName(ctx, alice, CID_A);
    const view = gatewayNameResolver(ctx.resolver);
    const signal = () => new AbortController().signal;
    // The first read may wait on the store; once cached, no promise and no new object per request.
    const first = await view(name, signal);
    const again = view(name, signal);
    expect(again).not.toBeInstanceOf(Promise);
    expect(again).toBe(first);
    expect(first.key).toBe(CID_A);
    await publishName(ctx, alice, name, CID_B);
    const published = view(name, signal);
    expect(published).not.toBeInstanceOf(Promise);
    expect((published as Awaited<typeof published>).key).toBe(CID_B);
    clock.advance(366 * 24 * 3600 * 1000);
    // Past its validity the record is no longer served from the cache: it is read and validated again.
    const expired = view(name, signal);
    expect(expired).toBeInstanceOf(Promise);
    await expect(expired).rejects.toThrow(/expired/);
  });

  it('a fresh resolver (restart) reads the stored record, validates it and serves it', async () => {
    const { name } = await createName(ctx, alice, CID_A);
    await publishName(ctx, alice, name, CID_B);
    const restarted = namesContext(t.db, { clock });
    const resolution = await resolveName(restarted, name);
    expect(resolution.cid.toString()).toBe(CID_B);
    expect(resolution.record).toEqual(new Uint8Array(nameByName(t.db, name)?.record ?? []));
  });

  it('pins first when asked, before anything else changes', async () => {
    const pinned: [number, string][] = [];
    ctx = namesContext(t.db, { clock, limit: 3, pinFirst: async (accountId, cid) => void pinned.push([accountId, cid.toString()]) });
    const { name } = await createName(ctx, alice, CID_A, undefined, { pin: true });
    await publishName(ctx, alice, name, CID_B, { pin: true });
    await publishName(ctx, alice, name, CID_A);
    expect(pinned).toEqual([
      [alice, CID_A],
      [alice, CID_B],
    ]);
    const failing = namesContext(t.db, { clock, limit: 3, pinFirst: async () => Promise.reject(new LimitReachedError('pinned_count')) });
    await expect(createName(failing, alice, CID_A, 'x', { pin: true })).rejects.toThrow(LimitReachedError);
    expect(countNamesOf(t.db, alice)).toBe(1);
    expect(ipnsCount(alice)).toBe(1);
  });
});

describe('bad input and ownership', () => {
  it('refuses a bad CID, a malformed name, and unknown or foreign names, changing nothing', async () => {
    const { name } = await createName(ctx, alice, CID_A);
    await expect(createName(ctx, alice, 'not-a-cid')).rejects.toThrow(/^arg is not a valid CID/);
    await expect(createName(ctx, alice, '')).rejects.toThrow(BadInputError);
    await expect(createName(ctx, alice, CID_A, 42)).rejects.toThrow(/^alias must be a string/);
    await expect(publishName(ctx, alice, name, 'bafy-nope')).rejects.toThrow(/^arg /);
    await expect(publishName(ctx, alice, 'QmInvalidCID', CID_B)).rejects.toThrow(/^key is not a valid IPNS name/);
    await expect(publishName(ctx, alice, KUBO_ED25519, CID_B)).rejects.toThrow(NotFoundError);
    await expect(publishName(ctx, bob, name, CID_B)).rejects.toThrow(NotFoundError);
    await expect(removeName(ctx, bob, name)).rejects.toThrow(NotFoundError);
    await expect(getName(ctx, bob, name)).rejects.toThrow(NotFoundError);
    await expect(setAlias(ctx, bob, name, 'mine')).rejects.toThrow(NotFoundError);
    expect(nameByName(t.db, name)?.seq).toBe(0);
    expect(countNamesOf(t.db, alice)).toBe(1);
    expect(ipnsCount(alice)).toBe(1);
    expect(ipnsCount(bob)).toBe(0);
    expect((await resolveName(ctx, name)).cid.toString()).toBe(CID_A);
  });

  it('stops create and import at the plan limit, creating nothing', async () => {
    for (const cid of [CID_A, CID_B, CID_V0]) await createName(ctx, alice, cid);
    await expect(createName(ctx, alice, CID_A)).rejects.toThrow(LimitReachedError);
    await expect(importName(ctx, alice, { name: KUBO_ED25519, value: CID_A, secret_key: edPem(), format: 'pem-pkcs8-cleartext' })).rejects.toThrow(
      LimitReachedError,
    );
    expect(countNamesOf(t.db, alice)).toBe(3);
    expect(ipnsCount(alice)).toBe(3);
    expect(nameByName(t.db, KUBO_ED25519)).toBeNull();
    // rm frees a slot.
    const [first] = (await listNames(ctx, alice)).items;
    await removeName(ctx, alice, first?.name);
    expect(ipnsCount(alice)).toBe(2);
    await createName(ctx, alice, CID_A);
    expect(ipnsCount(alice)).toBe(3);
  });
});

describe('import', () => {
  it('imports PEM Ed25519 and protobuf RSA keys; the record carries seq and the next publish seq + 1', async () => {
    const ed = await importName(ctx, alice, {
      name: '12D3KooWAcekXpuJjXdXUVKvtjYsa2WAY7hF5hX4csqGe4S434R6',
      value: CID_A,
      secret_key: edPem(),
      format: 'pem-pkcs8-cleartext',
      alias: 'ed',
      seq: 41,
    });
    expect(ed).toEqual({ name: KUBO_ED25519, value: CID_A });
    expect(await seqOf(KUBO_ED25519)).toBe(41n);
    await publishName(ctx, alice, KUBO_ED25519, CID_B);
    expect(await seqOf(KUBO_ED25519)).toBe(42n);

    const rsaProto = fixtureJson<{ id: string; derived_libp2p_private_key_protobuf_hex?: string }[]>('keys.json').find(
      (k) => k.id === 'kubo-openssl-rsa',
    )?.derived_libp2p_private_key_protobuf_hex;
    const rsa = await importName(ctx, alice, {
      name: 'QmWqgbBdPWDUnqDWey5RoRbg98bEciLkoFwLg76xctpKgJ',
      value: CID_B,
      secret_key: Buffer.from(rsaProto ?? '', 'hex').toString('base64'),
      format: 'libp2p-protobuf-cleartext',
    });
    expect(rsa.name).toBe(KUBO_RSA);
    expect(await seqOf(KUBO_RSA)).toBe(0n);
    expect((await resolveName(ctx, 'QmWqgbBdPWDUnqDWey5RoRbg98bEciLkoFwLg76xctpKgJ')).cid.toString()).toBe(CID_B);
    expect(ipnsCount(alice)).toBe(2);
    expect(nameByName(t.db, KUBO_RSA)?.keyType).toBe('RSA');
  });

  it('refuses a name that is not the key, bad seq, bad value, bad format, unsupported keys: 400, nothing stored', async () => {
    const base = { name: KUBO_ED25519, value: CID_A, secret_key: edPem(), format: 'pem-pkcs8-cleartext' };
    const secp = fixture('kubo/test/cli/testdata/openssl_secp256k1.pem').toString('utf8');
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ name: KUBO_RSA }, /^name does not match secret_key/],
      [{ name: 'k51-not-a-name' }, /^name is not a valid IPNS name/],
      [{ value: 'nope' }, /^value is not a valid CID/],
      [{ seq: -1 }, /^seq must be a non-negative integer/],
      [{ seq: 1.5 }, /^seq /],
      [{ seq: '3' }, /^seq /],
      [{ seq: Number.MAX_SAFE_INTEGER }, /^seq /],
      [{ format: 'pem' }, /^format /],
      [{ secret_key: 'garbage' }, /^secret_key /],
      [{ secret_key: secp, name: '16Uiu2HAmUnU2WFKDFtd9zxpedHkDb72z7stLDSj54uyvHpZeVMkp' }, /unsupported key type secp256k1/],
      [{ alias: ['x'] }, /^alias /],
    ];
    for (const [patch, message] of cases) {
      await expect(importName(ctx, alice, { ...base, ...patch }), JSON.stringify(patch)).rejects.toThrow(BadInputError);
      await expect(importName(ctx, alice, { ...base, ...patch })).rejects.toThrow(message);
    }
    expect(countNamesOf(t.db, alice)).toBe(0);
    expect(ipnsCount(alice)).toBe(0);
  });

  it('refuses a name that already exists here or in another account (409)', async () => {
    const input = { name: KUBO_ED25519, value: CID_A, secret_key: edPem(), format: 'pem-pkcs8-cleartext' };
    await importName(ctx, alice, input);
    await expect(importName(ctx, bob, input)).rejects.toThrow(ConflictError);
    await expect(importName(ctx, alice, input)).rejects.toThrow(ConflictError);
    expect(ipnsCount(alice)).toBe(1);
    expect(ipnsCount(bob)).toBe(0);
    expect(nameByName(t.db, KUBO_ED25519)?.accountId).toBe(alice);
  });

  it('accepts the RSA key as PEM too', async () => {
    const result = await importName(ctx, bob, { name: KUBO_RSA, value: CID_V0, secret_key: rsaPem(), format: 'pem-pkcs8-cleartext' });
    expect(result).toEqual({ name: KUBO_RSA, value: CID_V0 });
  });
});

describe('import without a name (Pinfold extension)', () => {
  it("takes the key's own name when the name is absent or empty, and still refuses a name already taken", async () => {
    const result = await importName(ctx, alice, { value: CID_A, secret_key: edPem(), format: 'pem-pkcs8-cleartext' });
    expect(result).toEqual({ name: KUBO_ED25519, value: CID_A });
    expect(nameByName(t.db, KUBO_ED25519)?.accountId).toBe(alice);
    const rsa = await importName(ctx, bob, { name: '', value: CID_V0, secret_key: rsaPem(), format: 'pem-pkcs8-cleartext' });
    expect(rsa).toEqual({ name: KUBO_RSA, value: CID_V0 });
    await expect(importName(ctx, bob, { value: CID_A, secret_key: edPem(), format: 'pem-pkcs8-cleartext' })).rejects.toThrow(
      new RegExp(`^name ${KUBO_ED25519} already exists`),
    );
    expect(ipnsCount(alice)).toBe(1);
    expect(ipnsCount(bob)).toBe(1);
  });

  it('refuses a name of the wrong type and a bad key as before, storing nothing', async () => {
    const base = { value: CID_A, secret_key: edPem(), format: 'pem-pkcs8-cleartext' };
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ name: null }, /^name /],
      [{ name: 7 }, /^name /],
      [{ secret_key: 'garbage' }, /^secret_key /],
      [{ format: undefined }, /^format /],
    ];
    for (const [patch, message] of cases) {
      await expect(importName(ctx, alice, { ...base, ...patch }), JSON.stringify(patch)).rejects.toThrow(message);
    }
    expect(countNamesOf(t.db, alice)).toBe(0);
    expect(ipnsCount(alice)).toBe(0);
  });
});

describe('remove', () => {
  it('removes the row and the cached resolution, and decrements the counter', async () => {
    const { name } = await createName(ctx, alice, CID_A, 'gone');
    await resolveName(ctx, name);
    await removeName(ctx, alice, name);
    expect(nameByName(t.db, name)).toBeNull();
    expect(ipnsCount(alice)).toBe(0);
    await expect(resolveName(ctx, name)).rejects.toThrow(NotFoundError);
    await expect(removeName(ctx, alice, name)).rejects.toThrow(NotFoundError);
    expect(ipnsCount(alice)).toBe(0);
    // The alias is free again.
    await createName(ctx, alice, CID_B, 'gone');
  });
});

describe('account views', () => {
  it('lists newest first with paging and total, per account', async () => {
    const names: string[] = [];
    ctx = namesContext(t.db, { clock, limit: 100 });
    for (let i = 0; i < 5; i++) {
      names.push((await createName(ctx, alice, CID_A, `n${i}`)).name);
      clock.advance(i === 2 ? 0 : 1000); // two rows share a second: insertion order breaks the tie
    }
    await createName(ctx, bob, CID_B);
    const all = await listNames(ctx, alice, { limit: '10', start: '0' });
    expect(all.total).toBe(5);
    expect(all.items.map((item) => item.name)).toEqual([...names].reverse());
    const page = await listNames(ctx, alice, { limit: '2', start: '1' });
    expect(page.total).toBe(5);
    expect(page.items.map((item) => item.alias)).toEqual(['n3', 'n2']);
    expect(await listNames(ctx, alice, { limit: '2', start: '10' })).toEqual({ items: [], total: 5 });
    expect((await listNames(ctx, alice)).items.length).toBe(5);
    expect((await listNames(ctx, bob)).total).toBe(1);
    for (const bad of [{ limit: '0' }, { limit: '1001' }, { limit: '2.5' }, { start: '-1' }, { limit: 'five' }]) {
      await expect(listNames(ctx, alice, bad), JSON.stringify(bad)).rejects.toThrow(BadInputError);
    }
  });

  it('searches aliases exactly and case-sensitively, and keeps them unique per account', async () => {
    const home = await createName(ctx, alice, CID_A, 'Home');
    const work = await createName(ctx, alice, CID_B);
    await createName(ctx, bob, CID_B, 'Home'); // another account may use the same alias
    expect((await searchByAlias(ctx, alice, 'Home')).name).toBe(home.name);
    await expect(searchByAlias(ctx, alice, 'home')).rejects.toThrow(NotFoundError);
    await expect(searchByAlias(ctx, alice, 'Hom')).rejects.toThrow(NotFoundError);
    await expect(searchByAlias(ctx, alice, '')).rejects.toThrow(/^alias is required/);

    await expect(setAlias(ctx, alice, work.name, 'Home')).rejects.toThrow(ConflictError);
    await expect(createName(ctx, alice, CID_A, 'Home')).rejects.toThrow(ConflictError);
    expect(ipnsCount(alice)).toBe(2);
    await setAlias(ctx, alice, work.name, 'Work');
    expect((await searchByAlias(ctx, alice, 'Work')).name).toBe(work.name);
    await setAlias(ctx, alice, home.name, 'Home'); // unchanged: no conflict with itself
    await setAlias(ctx, alice, home.name, '');
    expect((await getName(ctx, alice, home.name)).alias).toBe('');
    await setAlias(ctx, alice, work.name, 'Home');
    expect((await searchByAlias(ctx, alice, 'Home')).name).toBe(work.name);
    await expect(setAlias(ctx, alice, 'bad name', 'x')).rejects.toThrow(/^name /);
    await expect(setAlias(ctx, alice, KUBO_ED25519, 'x')).rejects.toThrow(NotFoundError);
  });
});
