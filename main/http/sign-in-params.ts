import type { CodeSession } from '../accounts/sign-in-codes.js';
import { BadInputError } from '../base/errors.js';

/** The query of `POST /api/v0/session/handoff`: where the window goes once signed in, and which session. */

/** A page of the window as a URL path (`/view?path=%2Fipfs%2F…`): the desktop's links are at most 4096 characters, encoded up to three times that. */
const MAX_NEXT_LENGTH = 16_384;
// From the window's own origin only: one leading slash (not `//host` or `/\host`, which browsers take
// for another host), then printable ASCII without spaces (the rest arrives percent-encoded).
const NEXT_PATTERN = /^\/(?![/\\])[\x21-\x7e]*$/;

export function parseNextPage(value: unknown): string | null {
  if (value === undefined) return null;
  if (typeof value !== 'string' || value.length > MAX_NEXT_LENGTH || !NEXT_PATTERN.test(value)) {
    throw new BadInputError(`next must be a page of the window: a path starting with one /, printable ASCII, at most ${MAX_NEXT_LENGTH} characters`);
  }
  return value;
}

export function parseCodeSession(value: unknown): CodeSession {
  if (value === undefined || value === 'new') return 'new';
  if (value === 'shared') return 'shared';
  throw new BadInputError('session must be new or shared');
}
