/** One numbered schema step. Every table is STRICT; a migration never changes after it ships. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}
