import type { IpnsRecordView } from '../../../shared/api-types.js';
import { middleEllipsis } from '../../lib/format.js';

/** What a name is called in buttons and messages: its alias, or its shortened IPNS name. */
export function nameLabel(name: Pick<IpnsRecordView, 'name' | 'alias'>): string {
  return name.alias || middleEllipsis(name.name, 12, 6);
}

/** The service keeps aliases of up to 256 characters. */
export const MAX_ALIAS = 256;
