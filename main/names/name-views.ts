import type { IpnsRecordView } from '../../shared/api-types.js';
import { ConflictError, NotFoundError } from '../base/errors.js';
import { isUniqueViolation } from '../store/db/database.js';
import { countNamesOf, nameByAlias, namesOf, setNameAlias } from '../store/db/names-queries.js';
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
export function listNames(ctx: NamesContext, accountId: number, { limit, start }: NamePage): { items: IpnsRecordView[]; total: number } {
  // Two synchronous reads on the one connection: no write can land between them.
  return { items: namesOf(ctx.db, accountId, limit, start).map(toRecordView), total: countNamesOf(ctx.db, accountId) };
}

/** Account API: one of the caller's names, in any accepted form (k51..., 12D3KooW..., Qm...). */
export function getName(ctx: NamesContext, accountId: number, parsed: IpnsName): IpnsRecordView {
  return toRecordView(ownedRow(ctx, accountId, parsed.name, 'name'));
}

/** Account API: exact, case-sensitive alias match within the caller's names (aliases are unique there). */
export function searchByAlias(ctx: NamesContext, accountId: number, wanted: string): IpnsRecordView {
  const row = nameByAlias(ctx.db, accountId, wanted);
  if (row === null) throw new NotFoundError(`alias ${wanted} not found`);
  return toRecordView(row);
}

/** Account API: sets (or with null clears) a name's alias; 409 when another of the caller's names has it. */
export function setAlias(ctx: NamesContext, accountId: number, parsed: IpnsName, wanted: string | null): void {
  const row = ownedRow(ctx, accountId, parsed.name, 'name');
  if (row.alias === wanted) return;
  if (wanted !== null) {
    const holder = nameByAlias(ctx.db, accountId, wanted);
    if (holder !== null && holder.id !== row.id) throw new ConflictError(`alias ${wanted} is already used`);
  }
  try {
    setNameAlias(ctx.db, row.id, wanted);
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError(`alias ${wanted ?? ''} is already used`);
    throw error;
  }
  ctx.events?.nameChanged(accountId, toRecordView({ ...row, alias: wanted }));
}
