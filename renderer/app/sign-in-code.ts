/**
 * The one-time code of a sign-in link (`/signin?code=…`, printed by `pinfold serve` and `pinfold open`).
 * main.tsx takes it out of the address bar before the app renders, so it is never in history, a
 * bookmark or a screenshot, and is redeemed exactly once. A link may also say where to go once signed in
 * (`&next=/view?path=…`, as the desktop app's ipfs:// links do): only a page of the app is taken.
 */
import { isReturnTarget } from './routes.js';

export interface SignInLink {
  code: string;
  /** The same address without the code (and without `next`, which is spent with it). */
  cleanPath: string;
  /** The page to show after sign-in, when the link named one the app accepts; else null (the Overview). */
  next: string | null;
}

export function takeSignInCode(location: { pathname: string; search: string; hash: string }): SignInLink | null {
  if (!/^\/signin\/?$/i.test(location.pathname)) return null;
  const params = new URLSearchParams(location.search);
  const code = params.get('code');
  if (code === null) return null;
  const next = params.get('next');
  params.delete('code');
  params.delete('next');
  const search = params.toString();
  return {
    code,
    cleanPath: `${location.pathname}${search ? `?${search}` : ''}${location.hash}`,
    next: next !== null && isReturnTarget(next) ? next : null,
  };
}
