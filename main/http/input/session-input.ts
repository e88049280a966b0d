import { custom, nullable, object, picklist, pipe, transform, unknown, type GenericSchema } from 'valibot';
import { SIGN_IN_CODE_PATTERN, type CodeSession } from '../../accounts/sign-in-codes.js';
import { field } from './fields.js';

/** The request schemas of sign-in (issue 12, api12.md section 2; the handoff pages of issue 22). */

/** A page of the window as a URL path (`/view?path=%2Fipfs%2F…`): the desktop's links are at most 4096 characters, encoded up to three times that. */
const MAX_NEXT_LENGTH = 16_384;
// From the window's own origin only: one leading slash (not `//host` or `/\host`, which browsers take
// for another host), then printable ASCII without spaces (the rest arrives percent-encoded).
const NEXT_PATTERN = /^\/(?![/\\])[\x21-\x7e]*$/;

/** Where the window goes once signed in: absent is its start page. */
const nextPage: GenericSchema<unknown, string | null> = field(
  pipe(
    unknown(),
    nullable(
      custom<string>(
        (value) => typeof value === 'string' && value.length <= MAX_NEXT_LENGTH && NEXT_PATTERN.test(value),
        `next must be a page of the window: a path starting with one /, printable ASCII, at most ${MAX_NEXT_LENGTH} characters`,
      ),
    ),
  ),
);

/** Which session the code signs in to: absent is a new one. */
const codeSession: GenericSchema<unknown, CodeSession> = field(
  pipe(
    unknown(),
    transform((value) => value ?? 'new'),
    picklist(['new', 'shared'], 'session must be new or shared'),
  ),
);

/** `POST /api/v0/session/handoff`: where the window goes once signed in, and which session. */
export const HandoffQuery = object({ next: nextPage, session: codeSession });

/** `POST /api/v0/session?code=`: a code's form is checked here; whether it was issued, by the codes. */
export const SignInQuery = object({
  code: field(
    pipe(
      unknown(),
      custom<unknown>((value) => value !== null && value !== '', 'code is required'),
      custom<string>((value) => typeof value === 'string' && SIGN_IN_CODE_PATTERN.test(value), 'code is malformed (43 base64url characters expected)'),
    ),
  ),
});
