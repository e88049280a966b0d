import type { Envelope, ListEnvelope } from '../../shared/api-types.js';

export function ok(): Envelope;
export function ok<T>(data: T): Envelope<T>;
export function ok<T>(data?: T): Envelope<T> {
  return data === undefined ? { code: 200, msg: 'ok' } : { code: 200, msg: 'ok', data };
}

export function list<T>(data: T[], total: number): ListEnvelope<T> {
  return { code: 200, data, total };
}
