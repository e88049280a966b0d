import type { IpnsRecordView } from '../../shared/api-types.js';
import { ConflictError, NotFoundError } from '../base/errors.js';
import { isUniqueViolation } from '../store/db/database.js';
import { countNamesOf, nameByAlias, namesOf, setNameAlias } from '../store/db/names-queries.js';
import type { NamesContext } from './context.js';
import { ownedRow } from './manage-names.js';
import { parseIpnsName } from './name-parse.js';
import { parseOptionalAlias, parsePage, parseRequiredAlias } from './params.js';
import { toRecordView } from './record-view.js';

export { toRecordView } from './record-view.js';

/** Account API: the caller's names, newest first, with the total for paging. */
export function listNames(ctx: NamesContext, accountId: number, page: { limit?: unknown; start?: unknown } = {}): { items: IpnsRecordView[]; total: number } {
  const { limit, start } = parsePage(page);
  // Two synchronous reads on the one connection: no write can land between them.
  return { items: namesOf(ctx.db, accountId, limit, start).map(toRecordView), total: countNamesOf(ctx.db, accountId) };
}

/** Account API: one of the caller's names, in any accepted form (k51..., 12D3KooW..., Qm...). */
export function getName(ctx: NamesContext, accountId: number, name: unknown): IpnsRecordView {
  const parsed = parseIpnsName(name, 'name');
  return toRecordView(ownedRow(ctx, accountId, parsed.name, 'name'));
}

/** Account API: exact, case-sensitive alias match within the caller's names (aliases are unique there). */
export function searchByAlias(ctx: NamesContext, accountId: number, alias: unknown): IpnsRecordView {
  const wanted = parseRequiredAlias(alias, 'alias');
  const row = nameByAlias(ctx.db, accountId, wanted);
  if (row === null) throw new NotFoundError(`alias ${wanted} not found`);
  return toRecordView(row);
}

/** Account API: sets (or with '' clears) a name's alias; 409 when another of the caller's names has it. */
export function setAlias(ctx: NamesContext, accountId: number, name: unknown, alias: unknown): void {
  const parsed = parseIpnsName(name, 'name');
  const wanted = parseOptionalAlias(alias, 'alias');
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
