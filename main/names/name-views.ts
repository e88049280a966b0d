import type { IpnsRecordView } from '../../shared/api-types.js';
import { ConflictError, NotFoundError } from '../base/errors.js';
import { UniqueViolation } from '../store/repositories/index.js';
import type { NamesContext } from './context.js';
import { ownedRow } from './manage-names.js';
import type { IpnsName } from './name-parse.js';
import { toRecordView } from './record-view.js';

export { toRecordView } from './record-view.js';

/** A page of the caller's names: `limit` rows from row `start`. */
export interface NamePage {
  limit: number;
  start: number;
}

/** Account API: the caller's names, newest first, with the total for paging. */
export async function listNames(ctx: NamesContext, accountId: number, { limit, start }: NamePage): Promise<{ items: IpnsRecordView[]; total: number }> {
  // Both reads in one transaction: no write can land between the page and its total.
  return ctx.store.transaction(async (tx) => {
    const rows = await tx.names.namesOf(accountId, limit, start);
    return { items: rows.map(toRecordView), total: await tx.names.countNamesOf(accountId) };
  });
}

/** Account API: one of the caller's names, in any accepted form (k51..., 12D3KooW..., Qm...). */
export async function getName(ctx: NamesContext, accountId: number, parsed: IpnsName): Promise<IpnsRecordView> {
  return toRecordView(await ownedRow(ctx.store, accountId, parsed.name, 'name'));
}

/** Account API: exact, case-sensitive alias match within the caller's names (aliases are unique there). */
export async function searchByAlias(ctx: NamesContext, accountId: number, wanted: string): Promise<IpnsRecordView> {
  const row = await ctx.store.names.nameByAlias(accountId, wanted);
  if (row === null) throw new NotFoundError(`alias ${wanted} not found`);
  return toRecordView(row);
}

/** Account API: sets (or with null clears) a name's alias; 409 when another of the caller's names has it. */
export async function setAlias(ctx: NamesContext, accountId: number, parsed: IpnsName, wanted: string | null): Promise<void> {
  // The row, the alias check and the write in one transaction, so neither can change in between.
  const changed = await ctx.store
    .transaction(async (tx) => {
      const row = await ownedRow(tx, accountId, parsed.name, 'name');
      if (row.alias === wanted) return null;
      if (wanted !== null) {
        const holder = await tx.names.nameByAlias(accountId, wanted);
        if (holder !== null && holder.id !== row.id) throw new ConflictError(`alias ${wanted} is already used`);
      }
      await tx.names.setNameAlias(row.id, wanted);
      return row;
    })
    .catch((error: unknown) => {
      if (error instanceof UniqueViolation) throw new ConflictError(`alias ${wanted ?? ''} is already used`);
      throw error;
    });
  if (changed !== null) ctx.events?.nameChanged(accountId, toRecordView({ ...changed, alias: wanted }));
}
