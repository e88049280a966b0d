/**
 * What a repository throws, whatever the engine underneath: domains decide by these classes, never by a
 * driver's codes or messages (the SQLite implementation translates better-sqlite3's `.code`, a
 * PostgreSQL one would translate SQLSTATE 23505).
 */
export class UniqueViolation extends Error {
  override readonly name = 'UniqueViolation';

  constructor(options?: { cause?: unknown }) {
    super('a row with the same unique key already exists', options);
  }
}

/** A transaction handle used after its transaction ended, or a write that would deadlock on its own transaction. */
export class TransactionMisuse extends Error {
  override readonly name = 'TransactionMisuse';
}
