import type { IpnsRecordView } from '../../shared/api-types.js';
import type { NameRow } from '../store/repositories/names.js';

/** A name as the account API shows it (spec "IPNS record"). */
export function toRecordView(row: NameRow): IpnsRecordView {
  return { name: row.name, value: row.value, alias: row.alias ?? '', created_at: row.createdAt, publish_at: row.publishAt, public: row.public };
}
