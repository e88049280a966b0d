import type { PgMigration } from './migration.js';

/**
 * Every committed change to an account row or a usage row is announced on the instances' channel
 * (`pinfold_changes`, JSON `{kind, key}`), whoever made it: another instance, an operator's SQL. The
 * instances keep those rows in memory (row-cache.ts) and drop one when it is announced. NOTIFY is
 * delivered at commit, and identical ones within a transaction go once.
 */
export const rowAnnouncementsMigration: PgMigration = {
  version: 3,
  name: 'row announcements',
  sql: `
CREATE FUNCTION pinfold_announce_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('pinfold_changes', json_build_object(
    'kind', TG_ARGV[0],
    'key', to_jsonb(CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END) ->> TG_ARGV[1])::text);
  RETURN NULL;
END $$;
CREATE TRIGGER accounts_announced AFTER UPDATE OR DELETE ON accounts
  FOR EACH ROW EXECUTE FUNCTION pinfold_announce_row('account', 'id');
CREATE TRIGGER usage_announced AFTER UPDATE OR DELETE ON usage
  FOR EACH ROW EXECUTE FUNCTION pinfold_announce_row('usage', 'account_id');
`,
};
