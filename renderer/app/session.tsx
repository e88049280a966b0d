/**
 * Who the window is signed in as, and how it got there: a pasted access key, a one-time sign-in link
 * (a session key, deleted again on Sign out) or, in the desktop app, the owner key from the bridge.
 * Credentials live in this tab's sessionStorage only (the owner's never: the desktop app hands it over
 * again on each start). A 401 on any call made with the current key ends the session with a notice.
 * The signed-in session's API client is bound to its key (useApi()): no page handles credentials.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { ApiError } from '../api/api-error.js';
import type { ApiClient } from '../api/client.js';
import type { Credentials } from '../api/core.js';
import { clearSignIn, loadSignIn, saveSignIn, type SignInKind } from '../api/credentials.js';
import { desktopBridge } from '../desktop-bridge.js';
import { describeError, sentence } from '../lib/messages.js';
import { useServices } from './services-context.js';
import type { SignInLink } from './sign-in-code.js';

export type SessionState =
  | {
      status: 'signed-out';
      /** Why the user is at sign-in (the session ended, a link failed); shown above the form. */
      notice: string | null;
      /** `signed-out` by the user: the page they were on is not remembered for later. */
      reason: 'start' | 'signed-out' | 'ended';
    }
  /** Exchanging a sign-in link's code, or fetching the owner key from the desktop bridge. */
  | { status: 'signing-in'; how: 'link' | 'desktop' }
  | { status: 'signed-in'; credentials: Credentials; kind: SignInKind };

export interface SessionControl {
  state: SessionState;
  /** Signs in with credentials already checked by the caller (the sign-in form checks them with stats). */
  signIn: (credentials: Credentials, kind: Exclude<SignInKind, 'owner'>) => void;
  /** Desktop app only: signs in as the owner through the bridge ("Sign in as owner"). */
  signInAsOwner: () => void;
  /**
   * Ends this window's sign-in (a session key is deleted on the service). `ended`: the key is gone
   * already (the Keys page revoked every session, this one too), so only the window signs out, saying so.
   */
  signOut: (ended?: { notice: string }) => Promise<void>;
}

const SessionContext = createContext<SessionControl | null>(null);
/** The signed-in session's client; null while nobody is signed in. */
const SessionApiContext = createContext<ApiClient | null>(null);

// Set when the user signs out in this tab, so the desktop app does not sign straight back in.
const SIGNED_OUT_KEY = 'pinfold.signed-out';

function initialState(link: SignInLink | null): SessionState {
  if (link) return { status: 'signing-in', how: 'link' };
  const stored = loadSignIn(sessionStorage);
  if (stored) return { status: 'signed-in', ...stored };
  if (desktopBridge() && sessionStorage.getItem(SIGNED_OUT_KEY) === null) return { status: 'signing-in', how: 'desktop' };
  return { status: 'signed-out', notice: null, reason: 'start' };
}

/** Says what went wrong with a sign-in link, and how to get a new one. */
function linkFailure(error: unknown): string {
  const code = error instanceof ApiError && error.kind === 'http' ? error.code : 0;
  if (code === 401)
    return 'This sign-in link was already used or has expired (links work once, for 5 minutes). Run `pinfold open` for a new one, or sign in with an access key.';
  if (code === 400) return 'This sign-in link is incomplete. Copy the whole link, or run `pinfold open` for a new one.';
  return describeError(error);
}

export function SessionProvider({ signInLink, children }: { signInLink: SignInLink | null; children: ReactNode }) {
  const { publicApi, apiFor, onUnauthorized } = useServices();
  const [state, setState] = useState<SessionState>(() => initialState(signInLink));
  const stateRef = useRef(state);
  useEffect(() => {
    stateRef.current = state;
  });

  const signIn = useCallback((credentials: Credentials, kind: Exclude<SignInKind, 'owner'>) => {
    saveSignIn(sessionStorage, { credentials, kind });
    sessionStorage.removeItem(SIGNED_OUT_KEY);
    setState({ status: 'signed-in', credentials, kind });
  }, []);

  // The sign-in link: redeemed once. Not aborted on unmount: the code is spent the moment the service sees it.
  const redeemed = useRef(false);
  useEffect(() => {
    if (!signInLink || redeemed.current) return;
    redeemed.current = true;
    publicApi.session.redeem(signInLink.code).then(
      (key) => signIn({ accessKey: key.access_key, accessSecret: key.access_secret }, 'session'),
      (error: unknown) => setState({ status: 'signed-out', notice: linkFailure(error), reason: 'start' }),
    );
  }, [publicApi, signInLink, signIn]);

  // The desktop app: the owner key from the bridge, kept in memory only.
  useEffect(() => {
    if (state.status !== 'signing-in' || state.how !== 'desktop') return;
    const bridge = desktopBridge();
    let current = true;
    const fail = (notice: string) => {
      if (current) setState({ status: 'signed-out', notice, reason: 'start' });
    };
    if (!bridge) return fail('This is not the desktop app: sign in with an access key.');
    bridge.getOwnerKey().then(
      (owner) => {
        if (!current) return;
        if (!owner) return fail('The desktop app did not hand over the owner key. Sign in with an access key.');
        sessionStorage.removeItem(SIGNED_OUT_KEY);
        setState({ status: 'signed-in', credentials: { accessKey: owner.access_key, accessSecret: owner.access_secret }, kind: 'owner' });
      },
      (error: unknown) => fail(`The desktop app could not hand over the owner key: ${describeError(error)}`),
    );
    return () => {
      current = false;
    };
  }, [state]);

  const signInAsOwner = useCallback(() => setState({ status: 'signing-in', how: 'desktop' }), []);

  const signOut = useCallback(
    async (ended?: { notice: string }) => {
      const current = stateRef.current;
      // A key that is gone may have been noticed first by a call that got 401; the window still says why.
      if (current.status !== 'signed-in' && !ended) return;
      clearSignIn(sessionStorage);
      sessionStorage.setItem(SIGNED_OUT_KEY, '1');
      let notice: string | null = ended?.notice ?? null;
      if (current.status === 'signed-in' && current.kind === 'session' && !ended) {
        // The session key is deleted on the service; if it cannot be reached, the key still expires by itself.
        // A 401 means it is gone already (another tab of the same session signed out, or it was revoked).
        try {
          await apiFor(current.credentials).session.end();
        } catch (error) {
          if (!(error instanceof ApiError && error.isUnauthorized)) {
            notice = 'Signed out of this window. The service could not be reached to delete the session key; it expires by itself within 7 days.';
          }
        }
      }
      setState({ status: 'signed-out', notice, reason: 'signed-out' });
    },
    [apiFor],
  );

  // 401 on a call made with the current key: the key was deleted, the session expired, the clock is off.
  useEffect(
    () =>
      onUnauthorized((credentials, error) => {
        const current = stateRef.current;
        if (current.status !== 'signed-in' || current.credentials.accessKey !== credentials.accessKey) return;
        clearSignIn(sessionStorage);
        sessionStorage.setItem(SIGNED_OUT_KEY, '1');
        setState({ status: 'signed-out', notice: `${sentence(`the service no longer accepts this sign-in: ${error.msg}`)} Sign in again.`, reason: 'ended' });
      }),
    [onUnauthorized],
  );

  const control = useMemo(() => ({ state, signIn, signInAsOwner, signOut }), [state, signIn, signInAsOwner, signOut]);
  // One client for the whole sign-in: made again only when the key changes.
  const signedInWith = state.status === 'signed-in' ? state.credentials : null;
  const api = useMemo(() => (signedInWith ? apiFor(signedInWith) : null), [apiFor, signedInWith]);
  return (
    <SessionContext.Provider value={control}>
      <SessionApiContext.Provider value={api}>{children}</SessionApiContext.Provider>
    </SessionContext.Provider>
  );
}

export function useSessionControl(): SessionControl {
  const control = useContext(SessionContext);
  if (!control) throw new Error('useSessionControl() outside <SessionProvider>');
  return control;
}

export interface SignedIn {
  credentials: Credentials;
  kind: SignInKind;
}

/** The signed-in session: for pages, which only render signed in. */
export function useSession(): SignedIn {
  const { state } = useSessionControl();
  if (state.status !== 'signed-in') throw new Error('useSession() while not signed in');
  return { credentials: state.credentials, kind: state.kind };
}

/** The signed-in session's API client, bound to its key: for pages, which only render signed in. */
export function useApi(): ApiClient {
  const api = useContext(SessionApiContext);
  if (!api) throw new Error('useApi() while not signed in');
  return api;
}
