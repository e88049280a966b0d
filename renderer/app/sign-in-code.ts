/**
 * The one-time code of a sign-in link (`/signin?code=…`, printed by `pinfold serve` and `pinfold open`).
 * main.tsx takes it out of the address bar before the app renders, so it is never in history, a
 * bookmark or a screenshot, and is redeemed exactly once.
 */
export interface SignInLink {
  code: string;
  /** The same address without the code. */
  cleanPath: string;
}

export function takeSignInCode(location: { pathname: string; search: string; hash: string }): SignInLink | null {
  if (!/^\/signin\/?$/i.test(location.pathname)) return null;
  const params = new URLSearchParams(location.search);
  const code = params.get('code');
  if (code === null) return null;
  params.delete('code');
  const search = params.toString();
  return { code, cleanPath: `${location.pathname}${search ? `?${search}` : ''}${location.hash}` };
}
