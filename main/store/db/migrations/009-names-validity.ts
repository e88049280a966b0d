import type { Migration } from './migration.js';

/**
 * When each owned name's record stops being valid, so the republisher finds the records close to their
 * end without decoding every record. Records signed before this step were all valid for one year
 * (31,536,000 s) from the second they were published.
 */
export const namesValidityMigration: Migration = {
  version: 9,
  name: 'names-validity',
  sql: `
-- Unix second at (or just before) which the stored record's validity (EOL) ends.
ALTER TABLE ipns_names ADD COLUMN valid_until INTEGER NOT NULL DEFAULT 0;
UPDATE ipns_names SET valid_until = publish_at + 31536000;
CREATE INDEX ipns_names_valid_until ON ipns_names(valid_until);
`,
};
