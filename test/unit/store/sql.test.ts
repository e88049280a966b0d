import { describe, expect, it } from 'vitest';
import { BYTEWISE, inList, insertionOrder, limitOf, POSTGRES, POSTGRES_IN_TRANSACTION, ROW_LOCK, SQLITE } from '../../../main/store/sql/dialects.js';
import { join, raw, render, sql } from '../../../main/store/sql/sql.js';

describe('the sql template', () => {
  const byId = (id: number) => sql`SELECT name FROM accounts WHERE id = ${id} AND uuid = ${'u'}`;

  it('renders ? for SQLite and $n for PostgreSQL, the values apart and in placeholder order', () => {
    expect(render(byId(7), SQLITE)).toEqual({ text: 'SELECT name FROM accounts WHERE id = ? AND uuid = ?', values: [7, 'u'] });
    expect(render(byId(7), POSTGRES)).toEqual({ text: 'SELECT name FROM accounts WHERE id = $1 AND uuid = $2', values: [7, 'u'] });
  });

  it('never makes a value text: SQL in a value stays a parameter', () => {
    const evil = "x'; DROP TABLE accounts; --";
    const { text, values } = render(sql`SELECT 1 FROM accounts WHERE name = ${evil}`, POSTGRES);
    expect(text).toBe('SELECT 1 FROM accounts WHERE name = $1');
    expect(values).toEqual([evil]);
  });

  it('renders a call site once per engine: the same text each call, each call its own values', () => {
    const first = render(byId(1), SQLITE);
    const second = render(byId(2), SQLITE);
    expect(second.text).toBe(first.text);
    expect(first.values).toEqual([1, 'u']);
    expect(second.values).toEqual([2, 'u']);
  });

  it('spells each engine difference as its engine does: row locks only in a PostgreSQL transaction', () => {
    const locked = (id: number) => sql`SELECT id FROM usage WHERE account_id = ${id}${ROW_LOCK}`;
    expect(render(locked(3), SQLITE).text).toBe('SELECT id FROM usage WHERE account_id = ?');
    expect(render(locked(3), POSTGRES).text).toBe('SELECT id FROM usage WHERE account_id = $1');
    expect(render(locked(3), POSTGRES_IN_TRANSACTION)).toEqual({ text: 'SELECT id FROM usage WHERE account_id = $1 FOR NO KEY UPDATE', values: [3] });
    const ordered = sql`SELECT cid FROM t ORDER BY cid${BYTEWISE}, ${insertionOrder('access_keys')}`;
    expect(render(ordered, SQLITE).text).toBe('SELECT cid FROM t ORDER BY cid, rowid');
    expect(render(ordered, POSTGRES).text).toBe('SELECT cid FROM t ORDER BY cid COLLATE "C", seq');
  });

  it('numbers the values of spliced pieces on from the statement’s own', () => {
    const conditions = [sql`status = ${'pinned'}`, sql`size > ${10}`];
    const query = sql`SELECT id FROM pins WHERE account_id = ${1} AND ${join(conditions, ' AND ')} LIMIT ${limitOf(-1)}`;
    expect(render(query, POSTGRES)).toEqual({
      text: 'SELECT id FROM pins WHERE account_id = $1 AND status = $2 AND size > $3 LIMIT $4',
      values: [1, 'pinned', 10, null],
    });
    expect(render(query, SQLITE)).toEqual({
      text: 'SELECT id FROM pins WHERE account_id = ? AND status = ? AND size > ? LIMIT ?',
      values: [1, 'pinned', 10, -1],
    });
  });

  it('matches a list with one parameter however long it is: JSON on SQLite, an array on PostgreSQL', () => {
    const query = (cids: string[]) => sql`SELECT id FROM pins WHERE ${inList(sql`cid`, cids, 'text')}`;
    expect(render(query(['a', 'b']), SQLITE)).toEqual({ text: 'SELECT id FROM pins WHERE cid IN (SELECT value FROM json_each(?))', values: ['["a","b"]'] });
    expect(render(query(['a', 'b', 'c']), POSTGRES)).toEqual({ text: 'SELECT id FROM pins WHERE cid = ANY($1::text[])', values: [['a', 'b', 'c']] });
  });

  it('renders a call site again when its tokens are not the ones it was rendered with', () => {
    const update = (column: string, amount: number) => sql`UPDATE usage SET ${raw(column)} = ${raw(column)} + ${amount}`;
    expect(render(update('ingress', 1), SQLITE).text).toBe('UPDATE usage SET ingress = ingress + ?');
    expect(render(update('egress', 2), SQLITE)).toEqual({ text: 'UPDATE usage SET egress = egress + ?', values: [2] });
  });

  it('splices trusted text as it is', () => {
    expect(render(sql`SELECT ${raw('id, name')} FROM accounts WHERE id = ${5}`, POSTGRES)).toEqual({
      text: 'SELECT id, name FROM accounts WHERE id = $1',
      values: [5],
    });
  });
});
