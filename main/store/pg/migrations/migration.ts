/** One numbered step of the PostgreSQL schema, run once, in order, under the migration lock. */
export interface PgMigration {
  version: number;
  name: string;
  sql: string;
}
