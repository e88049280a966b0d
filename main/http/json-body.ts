import type { IncomingMessage } from 'node:http';
import { BadInputError, PayloadTooLargeError } from '../base/errors.js';

/** Enough for a folder operation with 10,000 adds of long names. */
export const MAX_JSON_BODY_BYTES = 16 * 1024 * 1024;

/**
 * Reads a JSON object body whatever its Content-Type says (gw3's JS SDK sends JSON as
 * application/x-www-form-urlencoded); anything that is not a JSON object is 400.
 */
export async function readJsonObject(raw: IncomingMessage, limit = MAX_JSON_BODY_BYTES): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of raw) {
    const buffer = chunk as Buffer;
    total += buffer.length;
    if (total > limit) throw new PayloadTooLargeError(`JSON body larger than ${limit} bytes`);
    chunks.push(buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') throw new BadInputError('a JSON body is required');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new BadInputError('body is not valid JSON');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new BadInputError('body must be a JSON object');
  return parsed as Record<string, unknown>;
}

export function stringField(body: Record<string, unknown>, name: string, options: { required?: boolean; max?: number } = {}): string {
  const value = body[name];
  if (value === undefined || value === null) {
    if (options.required ?? true) throw new BadInputError(`${name} is required`);
    return '';
  }
  if (typeof value !== 'string') throw new BadInputError(`${name} must be a string`);
  if ((options.required ?? true) && value === '') throw new BadInputError(`${name} must not be empty`);
  if (value.length > (options.max ?? 1024)) throw new BadInputError(`${name} is too long`);
  return value;
}

export function integerField(body: Record<string, unknown>, name: string): number {
  const value = body[name];
  if (value === undefined || value === null) throw new BadInputError(`${name} is required`);
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new BadInputError(`${name} must be an integer`);
  return value;
}
