import type pg from 'pg';
import type { Db } from '../../main/store/db/database.js';

/**
 * A metadata schema as both engines can tell it, in one vocabulary, so that SQLite's migrated schema and
 * PostgreSQL's can be compared line by line: each fact a line of text (a column and its mapped type, a
 * primary key, an index, a unique or check constraint, a foreign key), sorted.
 */

/** A column's type as the row mappers see it. */
type MappedType = 'integer' | 'real' | 'text' | 'bytes' | 'boolean';

const SQLITE_TYPES: Record<string, MappedType> = { INTEGER: 'integer', REAL: 'real', TEXT: 'text', BLOB: 'bytes' };
const POSTGRES_TYPES: Record<string, MappedType> = {
  bigint: 'integer',
  integer: 'integer',
  'double precision': 'real',
  text: 'text',
  bytea: 'bytes',
  boolean: 'boolean',
};

/**
 * An expression (a CHECK, an index's WHERE, a default) in one spelling: PostgreSQL's `x = ANY (ARRAY[…])`
 * as `x IN (…)`, casts and parentheses dropped, lower case, single spaces.
 */
export function normalizeExpression(text: string): string {
  return text
    .replace(/::[a-z ]+(\[\])?/gi, '')
    .replace(/(\w+) = ANY \(ARRAY\[([^\]]*)\]\)/gi, '$1 IN ($2)')
    .replace(/[()]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

function mapped(table: Record<string, MappedType>, type: string, where: string): MappedType {
  const found = table[type];
  if (found === undefined) throw new Error(`no mapped type for ${type} (${where})`);
  return found;
}

/** The parenthesized list that starts at `open` (the index of a '('), without its parentheses. */
function parenthesized(text: string, open: number): string {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return text.slice(open + 1, i);
  }
  throw new Error(`unbalanced parentheses in ${text}`);
}

/** Every `CHECK (…)` of a CREATE TABLE or ALTER TABLE … ADD COLUMN text. */
function checksIn(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/\bCHECK\s*\(/gi)) found.push(parenthesized(text, match.index + match[0].length - 1));
  return found;
}

export function sqliteSchema(db: Db): string[] {
  const facts: string[] = [];
  const tables = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string; sql: string }[];
  for (const { name: table, sql } of tables) {
    const columns = db.prepare(`PRAGMA table_info(${table})`).all() as { name: string; type: string; notnull: number; dflt_value: string | null; pk: number }[];
    for (const column of columns) {
      const type = mapped(SQLITE_TYPES, column.type, `${table}.${column.name}`);
      // A lone INTEGER PRIMARY KEY is the rowid: never null.
      const rowid = column.pk > 0 && column.type === 'INTEGER' && columns.filter((c) => c.pk > 0).length === 1;
      const notNull = column.notnull === 1 || rowid;
      const fallback = column.dflt_value === null ? '' : ` default ${normalizeExpression(column.dflt_value)}`;
      facts.push(`${table} column ${column.name} ${type}${notNull ? ' not null' : ''}${fallback}`);
    }
    const key = columns.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
    if (key.length > 0) facts.push(`${table} primary key (${key.map((c) => c.name).join(', ')})`);
    for (const check of checksIn(sql)) facts.push(`${table} check ${normalizeExpression(check)}`);
    const indexes = db.prepare(`PRAGMA index_list(${table})`).all() as { name: string; unique: number; origin: 'c' | 'u' | 'pk'; partial: number }[];
    for (const index of indexes) {
      if (index.origin === 'pk') continue;
      const keyColumns = (db.prepare(`PRAGMA index_xinfo(${index.name})`).all() as { name: string; desc: number; key: number }[])
        .filter((c) => c.key === 1)
        .map((c) => `${c.name}${c.desc === 1 ? ' desc' : ''}`)
        .join(', ');
      if (index.origin === 'u') {
        facts.push(`${table} unique (${keyColumns})`);
        continue;
      }
      const definition = (db.prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?").get(index.name) as { sql: string }).sql;
      const where = /\bWHERE\b([\s\S]*)$/i.exec(definition)?.[1];
      facts.push(
        `${table} ${index.unique === 1 ? 'unique index' : 'index'} ${index.name} (${keyColumns})${where ? ` where ${normalizeExpression(where)}` : ''}`,
      );
    }
    const foreign = db.prepare(`PRAGMA foreign_key_list(${table})`).all() as {
      id: number;
      table: string;
      from: string;
      to: string | null;
      on_delete: string;
    }[];
    for (const reference of foreign) {
      const action = reference.on_delete === 'NO ACTION' ? '' : ` on delete ${reference.on_delete.toLowerCase()}`;
      facts.push(`${table} foreign key (${reference.from}) references ${reference.table}${action}`);
    }
  }
  return facts.sort();
}

export async function postgresSchema(q: Pick<pg.Pool, 'query'>): Promise<string[]> {
  const facts: string[] = [];
  const columns = await q.query<{ table_name: string; column_name: string; data_type: string; is_nullable: string; column_default: string | null }>(
    `SELECT table_name, column_name, data_type, is_nullable, column_default FROM information_schema.columns WHERE table_schema = 'public'`,
  );
  for (const column of columns.rows) {
    const type = mapped(POSTGRES_TYPES, column.data_type, `${column.table_name}.${column.column_name}`);
    const fallback = column.column_default === null ? '' : ` default ${normalizeExpression(column.column_default)}`;
    facts.push(`${column.table_name} column ${column.column_name} ${type}${column.is_nullable === 'NO' ? ' not null' : ''}${fallback}`);
  }
  const constraints = await q.query<{ table_name: string; contype: string; definition: string; name: string }>(
    `SELECT t.relname AS table_name, c.contype, pg_get_constraintdef(c.oid) AS definition, c.conname AS name FROM pg_constraint c
     JOIN pg_class t ON t.oid = c.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace WHERE n.nspname = 'public'`,
  );
  const constraintIndexes = new Set<string>();
  for (const constraint of constraints.rows) {
    const { table_name: table, definition } = constraint;
    if (constraint.contype === 'p') {
      facts.push(`${table} primary key (${parenthesized(definition, definition.indexOf('('))})`);
      constraintIndexes.add(constraint.name);
    } else if (constraint.contype === 'u') {
      facts.push(`${table} unique (${parenthesized(definition, definition.indexOf('('))})`);
      constraintIndexes.add(constraint.name);
    } else if (constraint.contype === 'c') facts.push(`${table} check ${normalizeExpression(parenthesized(definition, definition.indexOf('(')))}`);
    else if (constraint.contype === 'f') {
      const match = /^FOREIGN KEY \(([^)]*)\) REFERENCES (\w+)\([^)]*\)(.*)$/.exec(definition);
      if (!match) throw new Error(`unread foreign key: ${definition}`);
      const action = /ON DELETE (CASCADE|SET NULL|RESTRICT)/.exec(match[3] ?? '')?.[1];
      facts.push(`${table} foreign key (${match[1]}) references ${match[2]}${action ? ` on delete ${action.toLowerCase()}` : ''}`);
    }
  }
  const indexes = await q.query<{ table_name: string; name: string; definition: string }>(
    `SELECT tablename AS table_name, indexname AS name, indexdef AS definition FROM pg_indexes WHERE schemaname = 'public'`,
  );
  for (const index of indexes.rows) {
    if (constraintIndexes.has(index.name)) continue;
    const { definition } = index;
    const keyColumns = parenthesized(definition, definition.indexOf('(', definition.indexOf(' USING ')))
      .split(',')
      .map((c) => c.trim().replace(/ DESC$/, ' desc'))
      .join(', ');
    const where = / WHERE (.*)$/.exec(definition)?.[1];
    const unique = definition.startsWith('CREATE UNIQUE INDEX');
    facts.push(`${index.table_name} ${unique ? 'unique index' : 'index'} ${index.name} (${keyColumns})${where ? ` where ${normalizeExpression(where)}` : ''}`);
  }
  return facts.sort();
}
