import type { CID } from 'multiformats/cid';
import { NotFoundError } from '../base/errors.js';
import { requireVerifiableCid } from '../content/cid-param.js';
import type { Repositories } from '../store/repositories/index.js';
import type { NameMatch, PinHints, PinRow, PinSearch, PinWithHints } from '../store/repositories/pins.js';
import type { PinsContext } from './context.js';
import { httpOriginOf } from './http-multiaddr.js';
import { addPin, announcePin, markUnpinning, publishPin, writePinIn, type WrittenPin } from './pins.js';
import { pinStatusesFor, psaStatusOf, type PsaStatus } from './psa-status.js';

/**
 * The IPFS Pinning Service API's pins (contract section 11): the account's own pins, one pin set with the
 * Pins page and `GET /api/v0/pin`, each found by its `requestid`. A pin being removed (`unpinning`) is gone
 * from here. What the PSA adds to a pin (its meta, its HTTP(S) origins) is kept with it.
 */

export interface PsaPinsContext {
  pins: PinsContext;
}

/** Whether the pin's fetch has heard from a source yet: `pinning`, not `queued` (contract section 11). */
function fetchStarted(ctx: PsaPinsContext, pin: PinRow): boolean {
  return (ctx.pins.fetches?.progressOf(pin.id)?.source ?? null) !== null;
}

/** A `Pin` object of the PSA, checked: origins already narrowed to the HTTP(S) ones (http-multiaddr.ts). */
export interface PsaPinRequest {
  cid: CID;
  /** Null: none given (a new pin gets no name, an existing one keeps its own). */
  name: string | null;
  /** Null: none given (a new pin gets none, an existing one keeps its own). */
  meta: Readonly<Record<string, string>> | null;
  origins: readonly string[] | null;
}

export interface PsaPin {
  pin: PinWithHints;
  status: PsaStatus;
}

export interface PsaListQuery {
  statuses: readonly PsaStatus[];
  /** The stored spellings of the CIDs asked for (pin-list.ts cidSpellings). */
  cids: readonly string[] | null;
  name: { text: string; match: NameMatch } | null;
  meta: Readonly<Record<string, string>> | null;
  beforeMs: number | null;
  afterMs: number | null;
  limit: number;
}

export interface PsaList {
  count: number;
  results: PsaPin[];
}

/** A pin's `pinning` pins at most, read whole when a list asks for `queued` or `pinning` alone (they are the ones in flight). */
const MAX_IN_FLIGHT = 10_000;

function hintsOf(request: PsaPinRequest, isNew: boolean): Partial<PinHints> {
  const hints: { meta?: Readonly<Record<string, string>>; origins?: readonly string[] } = {};
  if (request.meta !== null || isNew) hints.meta = request.meta ?? {};
  if (request.origins !== null || isNew) hints.origins = request.origins ?? [];
  return hints;
}

function shown(ctx: PsaPinsContext, pin: PinWithHints): PsaPin | null {
  const status = psaStatusOf(pin.status, fetchStarted(ctx, pin));
  return status === null ? null : { pin, status };
}

async function requirePsaPin(ctx: PsaPinsContext, repositories: Repositories, accountId: number, requestId: string): Promise<PsaPin> {
  const pin = await repositories.pins.pinByRequestId(accountId, requestId);
  const found = pin ? shown(ctx, pin) : null;
  if (!found) throw new NotFoundError(`no pin with requestid ${JSON.stringify(requestId)}`);
  return found;
}

/** `GET /pins/{requestid}`. */
export function psaPinOf(ctx: PsaPinsContext, accountId: number, requestId: string): Promise<PsaPin> {
  return requirePsaPin(ctx, ctx.pins.accounts.store, accountId, requestId);
}

/**
 * `POST /pins`: pin add (contract section 6, its limits and statuses), with the pin's meta and origins. A CID
 * the account pins already answers that pin (its `requestid`), renamed and its hints replaced by what is given.
 */
export async function addPsaPin(ctx: PsaPinsContext, accountId: number, request: PsaPinRequest): Promise<PsaPin> {
  const existing = await ctx.pins.accounts.store.pins.pinOf(accountId, request.cid.toString());
  const row = await addPin(ctx.pins, accountId, request.cid, {
    ...(request.name !== null ? { name: request.name } : {}),
    hints: hintsOf(request, existing === null || existing.status === 'unpinning'),
  });
  return requirePsaPin(ctx, ctx.pins.accounts.store, accountId, row.requestId);
}

/**
 * `POST /pins/{requestid}`: the new pin is added and the old one removed in one transaction, under one hold of
 * the GC lock, so the blocks both reach are never unreachable in between. The answer has a new `requestid`:
 * the new pin's, or, when the CID is the same, the pin's renewed one.
 */
export async function replacePsaPin(ctx: PsaPinsContext, accountId: number, requestId: string, request: PsaPinRequest): Promise<PsaPin> {
  requireVerifiableCid(request.cid, 'cid');
  const { pins } = ctx;
  const written = await pins.gcLock.shared(async (hold) => {
    const census = await pins.content.census(request.cid);
    return pins.accounts.store.transaction(async (tx) => {
      const old = (await requirePsaPin(ctx, tx, accountId, requestId)).pin;
      const existing = await tx.pins.pinOf(accountId, request.cid.toString());
      const added = await writePinIn(pins, tx, hold, accountId, request.cid, census, {
        ...(request.name !== null ? { name: request.name } : {}),
        hints: hintsOf(request, existing === null || existing.status === 'unpinning'),
      });
      let removed: WrittenPin | null = null;
      if (added.row.id === old.id) await tx.pins.renewRequestId(old.id);
      else removed = await markUnpinning(pins, tx, old);
      return { added: { row: (await tx.pins.pinOf(accountId, added.row.cid)) as PinRow, changed: true }, removed };
    });
  });
  const row = announcePin(pins, written.added);
  if (written.removed?.changed) publishPin(pins, written.removed.row);
  return requirePsaPin(ctx, pins.accounts.store, accountId, row.requestId);
}

/** `DELETE /pins/{requestid}`: pin rm (the pin turns `unpinning`, gone from the PSA at once). */
export async function removePsaPin(ctx: PsaPinsContext, accountId: number, requestId: string): Promise<void> {
  const removed = await ctx.pins.accounts.store.transaction(async (tx) =>
    markUnpinning(ctx.pins, tx, (await requirePsaPin(ctx, tx, accountId, requestId)).pin),
  );
  if (removed.changed) publishPin(ctx.pins, removed.row);
}

/**
 * `GET /pins`: newest first, at most `limit`, with the count of all that match. `queued` and `pinning` are both
 * `pinning` pins, told apart by their fetch: when only one of them is asked for, the account's pins in flight are
 * read whole and split, and merged with the page of the other statuses.
 */
export function listPsaPins(ctx: PsaPinsContext, accountId: number, query: PsaListQuery): Promise<PsaList> {
  return ctx.pins.accounts.store.transaction(async (tx) => {
    const search: PinSearch = {
      statuses: pinStatusesFor(query.statuses),
      cids: query.cids,
      name: query.name,
      meta: query.meta,
      createdBeforeMs: query.beforeMs,
      createdAfterMs: query.afterMs,
    };
    const wanted = new Set(query.statuses);
    const asShown = (rows: PinWithHints[]): PsaPin[] =>
      rows.flatMap((row) => {
        const pin = shown(ctx, row);
        return pin && wanted.has(pin.status) ? [pin] : [];
      });
    if (wanted.has('queued') === wanted.has('pinning')) {
      return { count: await tx.pins.countPinSearch(accountId, search), results: asShown(await tx.pins.searchPins(accountId, search, query.limit)) };
    }
    const settled = { ...search, statuses: search.statuses.filter((status) => status !== 'pinning') };
    const inFlight = asShown(await tx.pins.searchPins(accountId, { ...search, statuses: ['pinning'] }, MAX_IN_FLIGHT));
    const page = settled.statuses.length > 0 ? asShown(await tx.pins.searchPins(accountId, settled, query.limit)) : [];
    const count = (settled.statuses.length > 0 ? await tx.pins.countPinSearch(accountId, settled) : 0) + inFlight.length;
    const merged = [...page, ...inFlight].sort((a, b) => b.pin.createdMs - a.pin.createdMs || b.pin.id - a.pin.id);
    return { count, results: merged.slice(0, query.limit) };
  });
}

/** The origins (`http://host:port`) a PSA client gave for the pin: extra sources for its fetch. */
export async function originSourcesOf(ctx: PinsContext, pinId: number): Promise<string[]> {
  const origins = (await ctx.accounts.store.pins.originsOf(pinId)).map(httpOriginOf);
  return [...new Set(origins.filter((origin): origin is string => origin !== null))];
}
