import type { NamesContext } from '../../../main/names/context.js';
import * as manage from '../../../main/names/manage-names.js';
import * as views from '../../../main/names/name-views.js';
import * as routing from '../../../main/names/routing-records.js';
import type { IpnsRecordView } from '../../../shared/api-types.js';
import {
  parseImportNameBody,
  parseIpnsName,
  parseNamePage,
  parseNameValue,
  parseOptionalAlias,
  parseRequiredAlias,
  type ImportNameBody,
} from '../../../main/http/name-params.js';

/**
 * The names domain called the way the routes call it (http/routes/names.ts): parameters as a request
 * carries them, parsed by http/name-params.ts in the route's order, then the typed domain function. The
 * async ones reject rather than throw, as the routes' handlers do.
 */

export async function createName(ctx: NamesContext, accountId: number, cid: unknown, alias?: unknown, options?: manage.PinOption): Promise<manage.NameResult> {
  return manage.createName(ctx, accountId, parseNameValue(cid, 'arg'), parseOptionalAlias(alias, 'alias'), options);
}

export async function publishName(ctx: NamesContext, accountId: number, name: unknown, cid: unknown, options?: manage.PinOption): Promise<manage.NameResult> {
  const parsed = parseIpnsName(name, 'key');
  return manage.publishName(ctx, accountId, parsed, parseNameValue(cid, 'arg'), options);
}

export async function importName(ctx: NamesContext, accountId: number, body: ImportNameBody): Promise<manage.NameResult> {
  return manage.importName(ctx, accountId, parseImportNameBody(body));
}

export async function removeName(ctx: NamesContext, accountId: number, name: unknown): Promise<void> {
  return manage.removeName(ctx, accountId, parseIpnsName(name, 'key'));
}

export async function listNames(
  ctx: NamesContext,
  accountId: number,
  page: { limit?: unknown; start?: unknown } = {},
): Promise<{ items: IpnsRecordView[]; total: number }> {
  return views.listNames(ctx, accountId, parseNamePage(page));
}

export async function getName(ctx: NamesContext, accountId: number, name: unknown): Promise<IpnsRecordView> {
  return views.getName(ctx, accountId, parseIpnsName(name, 'name'));
}

export async function searchByAlias(ctx: NamesContext, accountId: number, alias: unknown): Promise<IpnsRecordView> {
  return views.searchByAlias(ctx, accountId, parseRequiredAlias(alias, 'alias'));
}

export async function setAlias(ctx: NamesContext, accountId: number, name: unknown, alias: unknown): Promise<void> {
  return views.setAlias(ctx, accountId, parseIpnsName(name, 'name'), parseOptionalAlias(alias, 'alias'));
}

/** Routing records by name text (the fixture loaders' and tests' form), parsed as the name parameter. */
export async function putRoutingRecord(ctx: NamesContext, name: unknown, bytes: Uint8Array): Promise<routing.RoutingRecordCheck> {
  return routing.putRoutingRecord(ctx, parseIpnsName(name, 'name'), bytes);
}

export async function removeRoutingRecord(ctx: NamesContext, name: unknown): Promise<boolean> {
  return routing.removeRoutingRecord(ctx, parseIpnsName(name, 'name'));
}
