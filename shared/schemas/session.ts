import { number, object, string } from 'valibot';

/** `POST /api/v0/session?code=`: the session key a sign-in code was exchanged for. */
export const SessionKeySchema = object({
  access_key: string(),
  access_secret: string(),
  expires_at: number(),
  name: string(),
});

/** `POST /api/v0/session/code`. */
export const SignInCodeSchema = object({
  code: string(),
  url: string(),
  expires_at: number(),
});

/** `DELETE /api/v0/session/all`. */
export const SessionsRevokedSchema = object({
  revoked: number(),
});
