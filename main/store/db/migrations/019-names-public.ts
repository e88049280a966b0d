import type { Migration } from './migration.js';

/**
 * Names whose records this Pinfold also puts on the IPFS network (contract section 11: `name/public`): each new
 * record is PUT to the routing endpoints and put again before the network forgets it. Off for every name: a
 * public record tells anyone the content root it points at.
 *
 * 19, not 18: issue 23's Pinning Service API work takes 18 (pins), and both land together.
 */
export const namesPublicMigration: Migration = {
  version: 19,
  name: 'names-public',
  sql: `
ALTER TABLE ipns_names ADD COLUMN public INTEGER NOT NULL DEFAULT 0 CHECK (public IN (0, 1));
CREATE INDEX ipns_names_public ON ipns_names(id) WHERE public = 1;
`,
};
