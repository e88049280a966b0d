import type { NamesContext } from '../../../main/names/context.js';
import * as manage from '../../../main/names/manage-names.js';
import * as views from '../../../main/names/name-views.js';
import * as routing from '../../../main/names/routing-records.js';
import type { IpnsRecordView } from '../../../shared/api-types.js';
import {
  AliasBody,
  AliasSearchQuery,
  NameCreateQuery,
  NameImportBody,
  NamePageQuery,
  NamePathParams,
  NamePublishQuery,
  NameRemoveQuery,
} from '../../../main/http/input/names-input.js';
import { requestInput } from '../../../main/http/input/request-input.js';

/**
 * The names domain called the way the routes call it (http/routes/names.ts): parameters as a request
 * carries them, read through the route's schema (http/input/names-input.ts), then the typed domain
 * function. The async ones reject rather than throw, as the routes' handlers do.
 */

export async function createName(ctx: NamesContext, accountId: number, cid: unknown, alias?: unknown, options?: manage.PinOption): Promise<manage.NameResult> {
  const query = requestInput(NameCreateQuery, { arg: cid, alias });
  return manage.createName(ctx, accountId, query.arg, query.alias, options);
}

export async function publishName(ctx: NamesContext, accountId: number, name: unknown, cid: unknown, options?: manage.PinOption): Promise<manage.NameResult> {
  const query = requestInput(NamePublishQuery, { key: name, arg: cid });
  return manage.publishName(ctx, accountId, query.key, query.arg, options);
}

export async function importName(ctx: NamesContext, accountId: number, body: Record<string, unknown>): Promise<manage.NameResult> {
  return manage.importName(ctx, accountId, requestInput(NameImportBody, body));
}

export async function removeName(ctx: NamesContext, accountId: number, name: unknown): Promise<void> {
  return manage.removeName(ctx, accountId, requestInput(NameRemoveQuery, { key: name }).key);
}

/** The page as query text (`?limit=2&start=1`). */
export async function listNames(
  ctx: NamesContext,
  accountId: number,
  page: { limit?: string; start?: string } = {},
): Promise<{ items: IpnsRecordView[]; total: number }> {
  return views.listNames(ctx, accountId, requestInput(NamePageQuery, page));
}

export async function getName(ctx: NamesContext, accountId: number, name: unknown): Promise<IpnsRecordView> {
  return views.getName(ctx, accountId, requestInput(NamePathParams, { name }).name);
}

export async function searchByAlias(ctx: NamesContext, accountId: number, alias: unknown): Promise<IpnsRecordView> {
  return views.searchByAlias(ctx, accountId, requestInput(AliasSearchQuery, { alias }).alias);
}

export async function setAlias(ctx: NamesContext, accountId: number, name: unknown, alias: unknown): Promise<void> {
  const body = requestInput(AliasBody, { name, alias });
  return views.setAlias(ctx, accountId, body.name, body.alias);
}

/** Routing records by name text (the fixture loaders' and tests' form), read as the name parameter. */
export async function putRoutingRecord(ctx: NamesContext, name: unknown, bytes: Uint8Array): Promise<routing.RoutingRecordCheck> {
  return routing.putRoutingRecord(ctx, requestInput(NamePathParams, { name }).name, bytes);
}

export async function removeRoutingRecord(ctx: NamesContext, name: unknown): Promise<boolean> {
  return routing.removeRoutingRecord(ctx, requestInput(NamePathParams, { name }).name);
}
