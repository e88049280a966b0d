import type { CID } from 'multiformats/cid';
import { unixSeconds } from '../base/clock.js';
import { BadInputError, ConflictError, NotFoundError } from '../base/errors.js';
import { UniqueViolation, type Repositories } from '../store/repositories/index.js';
import type { NameRow, SeenRecordRow } from '../store/repositories/names.js';
import { announceNameChange, type NamesContext } from './context.js';
import { generateNameKey, importNameKey, nameOfKey, openNameKey, sealNameKey, type KeyText, type NameKey } from './keys.js';
import { tryParseIpnsName, type IpnsName } from './name-parse.js';
import { decidePublish, type OnConflict } from './publish-guard.js';
import { toRecordView } from './record-view.js';
import { signRecord, validateRecord, type ValidRecord } from './records.js';
import { lookElsewhere } from './seen-records.js';

/** What create, publish and import answer: the canonical name and the CID it now points at. */
export interface NameResult {
  name: string;
  value: string;
}

export interface PinOption {
  /** `pin=true`: pin the CID (as pin add) before the record changes. */
  pin?: boolean;
}

/** name/import, its parameters checked (http/input/names-input.ts) except the key, which only reading it can check. */
export interface ImportNameInput {
  /** null (a Pinfold extension): the key's own name. Given, it must be the key's name. */
  stated: IpnsName | null;
  value: CID;
  seq: number;
  alias: string | null;
  /** The key's text and format, checked as text: {@link importNameKey} reads the key, its 400s naming secret_key. */
  secretKey: KeyText;
}

/** name/create: a new Ed25519 key, its name, and a record (seq 0) for `cid`. */
export async function createName(
  ctx: NamesContext,
  accountId: number,
  content: CID,
  alias: string | null = null,
  options: PinOption = {},
): Promise<NameResult> {
  await checkAliasFree(ctx.store, accountId, alias, 'alias');
  await probeIpnsLimit(ctx, accountId);
  await pinIfAsked(ctx, accountId, content, options);
  const key = await generateNameKey();
  return storeNewName(ctx, accountId, key, content, 0, alias);
}

/** What a publish that may meet a conflict answers: the record published, or the newer record seen elsewhere that stopped it. */
export type GuardedPublish = { kind: 'published'; result: NameResult } | { kind: 'conflict'; seen: SeenRecordRow };

/**
 * name/publish: a new record for an owned name. Its sequence is one above the name's own and above any record of
 * the name seen elsewhere (contract section 11: the same key on another machine), so no reader prefers an
 * older record to it.
 */
export async function publishName(ctx: NamesContext, accountId: number, parsed: IpnsName, content: CID, options: PinOption = {}): Promise<NameResult> {
  await ownedRow(ctx.store, accountId, parsed.name);
  await pinIfAsked(ctx, accountId, content, options);
  const outcome = await publishOwnedName(ctx, accountId, parsed, content, 'publish');
  if (outcome.kind === 'conflict') throw new Error('a publish over conflicts stopped at one');
  return outcome.result;
}

/**
 * Publishes `content` to an owned name, after reading what the name's record is elsewhere when it is public (the
 * routing endpoints and fetch sources). A newer record from elsewhere stops it when `onConflict` is `stop` (a
 * sync folder: nothing is overwritten, the caller shows the conflict); else the record goes over it.
 */
export async function publishOwnedName(ctx: NamesContext, accountId: number, parsed: IpnsName, content: CID, onConflict: OnConflict): Promise<GuardedPublish> {
  const before = await ownedRow(ctx.store, accountId, parsed.name);
  // Outside the name's lock: a lookup may take seconds, and the name's other work waits on the lock.
  if (before.public) await lookElsewhere(ctx, parsed, before);
  return ctx.nameLock.run(parsed.name, async () => {
    const row = await ownedRow(ctx.store, accountId, parsed.name);
    const decision = decidePublish(row, await ctx.store.names.seenRecord(row.id), onConflict);
    if (decision.kind === 'conflict') return decision;
    const key = openNameKey(ctx.sealedBox, row.name, row.keySealed);
    const nowMs = ctx.clock.nowMs();
    const record = await signAndCheck(ctx, key, row.name, content, decision.seq, nowMs);
    const value = content.toString();
    // One guarded statement: it commits on its own.
    const updated = await ctx.store.names.updateNameRecord({
      id: row.id,
      expectedSeq: row.seq,
      seq: decision.seq,
      value,
      record: record.bytes,
      publishAt: Math.floor(nowMs / 1000),
      validUntil: validUntilSeconds(record),
    });
    // Only rm can change the row under the lock; then the name is gone.
    if (!updated) throw new NotFoundError(`key ${row.name} not found`);
    ctx.resolver.remember(record);
    announceNameChange(ctx, row.name);
    if (row.public) ctx.network?.recordChanged(row.name);
    await publishNameRow(ctx, row.name);
    return { kind: 'published', result: { name: row.name, value } };
  });
}

/**
 * name/import: the user's own key (PEM PKCS#8 or libp2p protobuf, Ed25519 or RSA). The record made now carries
 * `seq` (default 0); the next publish uses `seq + 1`. Without a `name` (a Pinfold extension: the window
 * imports a key file, whose name the user does not know yet), the key's own name is taken.
 */
export async function importName(ctx: NamesContext, accountId: number, input: ImportNameInput): Promise<NameResult> {
  const { stated, value: content, seq, alias } = input;
  const key = await importNameKey(input.secretKey);
  const keyName = nameOfKey(key);
  if (stated !== null && keyName !== stated.name) throw new BadInputError(`name does not match secret_key (the key's name is ${keyName})`);
  if ((await ctx.store.names.nameByName(keyName)) !== null) throw new ConflictError(`name ${keyName} already exists`);
  await checkAliasFree(ctx.store, accountId, alias, 'alias');
  await probeIpnsLimit(ctx, accountId);
  return storeNewName(ctx, accountId, key, content, seq, alias);
}

/** name/rm: the row, its sealed key and its record go; the ipns counter goes down by one. */
export async function removeName(ctx: NamesContext, accountId: number, parsed: IpnsName): Promise<void> {
  await ownedRow(ctx.store, accountId, parsed.name);
  await ctx.nameLock.run(parsed.name, async () => {
    const row = await ownedRow(ctx.store, accountId, parsed.name);
    await ctx.store.transaction(async (tx) => {
      await tx.names.deleteName(row.id);
      await ctx.limits.releaseIpns(tx, accountId);
    });
    ctx.resolver.forget(row.name);
    announceNameChange(ctx, row.name);
    if (row.public) ctx.network?.withdrawn(row.name);
    ctx.events?.nameChanged(accountId, { name: row.name, removed: true });
  });
}

/** Tells the event stream about a name as it is stored now (after the change committed). */
async function publishNameRow(ctx: NamesContext, name: string): Promise<void> {
  const events = ctx.events;
  if (events === undefined) return;
  const row = await ctx.store.names.nameByName(name);
  if (row !== null) events.nameChanged(row.accountId, toRecordView(row));
}

/** The caller's row for `name`; another account's name is as unknown as a name nobody has (404). */
export async function ownedRow(repositories: Repositories, accountId: number, name: string, param = 'key'): Promise<NameRow> {
  const row = await repositories.names.nameByName(name);
  if (row === null || row.accountId !== accountId) throw new NotFoundError(`${param} ${name} not found`);
  return row;
}

async function storeNewName(ctx: NamesContext, accountId: number, key: NameKey, content: CID, seq: number, alias: string | null): Promise<NameResult> {
  const name = nameOfKey(key);
  const nowMs = ctx.clock.nowMs();
  const record = await signAndCheck(ctx, key, name, content, seq, nowMs);
  const keySealed = sealNameKey(ctx.sealedBox, name, key);
  const value = content.toString();
  const now = unixSeconds(ctx.clock);
  try {
    await ctx.store.transaction(async (tx) => {
      await ctx.limits.reserveIpns(tx, accountId);
      await tx.names.insertName({
        accountId,
        name,
        alias,
        keyType: key.type,
        keySealed,
        value,
        seq,
        record: record.bytes,
        createdAt: now,
        publishAt: now,
        validUntil: validUntilSeconds(record),
      });
    });
  } catch (error) {
    if (error instanceof UniqueViolation) {
      const nameTaken = (await ctx.store.names.nameByName(name)) !== null;
      throw new ConflictError(nameTaken ? `name ${name} already exists` : `alias ${alias ?? ''} is already used`);
    }
    throw error;
  }
  ctx.resolver.remember(record);
  announceNameChange(ctx, name);
  await publishNameRow(ctx, name);
  return { name, value };
}

/** Every record we write is checked the way a reader would check it, before anyone can see it. */
export async function signAndCheck(ctx: NamesContext, key: NameKey, name: string, content: CID, seq: number, nowMs: number): Promise<ValidRecord> {
  const bytes = await signRecord(key, content, seq, nowMs, ctx.recordLifetimeMs);
  const parsed = tryParseIpnsName(name);
  if (parsed === undefined) throw new Error(`key name ${name} does not parse`);
  return validateRecord(parsed, bytes, nowMs);
}

/** The `valid_until` column: the record's EOL rounded down to the second, so it is never late. */
export function validUntilSeconds(record: ValidRecord): number {
  return Math.floor(record.validUntilMs / 1000);
}

async function checkAliasFree(repositories: Repositories, accountId: number, alias: string | null, param: string): Promise<void> {
  if (alias !== null && (await repositories.names.nameByAlias(accountId, alias)) !== null) throw new ConflictError(`${param} ${alias} is already used`);
}

class ProbeRollback extends Error {}

/**
 * Asks the plan limit before any side effect (pinning, key generation): reserves inside a transaction that is
 * then rolled back. The reservation that counts is repeated in the transaction that inserts the row.
 */
async function probeIpnsLimit(ctx: NamesContext, accountId: number): Promise<void> {
  try {
    await ctx.store.transaction(async (tx) => {
      await ctx.limits.reserveIpns(tx, accountId);
      throw new ProbeRollback();
    });
  } catch (error) {
    if (!(error instanceof ProbeRollback)) throw error;
  }
}

async function pinIfAsked(ctx: NamesContext, accountId: number, content: CID, options: PinOption): Promise<void> {
  if (options.pin !== true) return;
  if (ctx.pinFirst === undefined) throw new Error('pin=true needs pinFirst in the names context');
  await ctx.pinFirst(accountId, content);
}
