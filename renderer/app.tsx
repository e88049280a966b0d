import { useCallback, useEffect, useMemo, useState } from 'react';
import type { AccountUsage } from '../shared/api-types.js';
import { createApiClient, type Credentials } from './api/client.js';
import { clearCredentials, loadCredentials, saveCredentials } from './api/credentials.js';
import { AppHeader } from './components/app-header.js';
import { desktopBridge } from './desktop-bridge.js';
import { describeError } from './lib/messages.js';
import { OverviewPage } from './pages/overview/overview-page.js';
import { SignInPage } from './pages/sign-in/sign-in-page.js';

interface Session {
  credentials: Credentials;
  /** Stats fetched while signing in, shown at once instead of loading them twice. */
  usage?: AccountUsage;
}

// Set when the user signs out in this tab, so the desktop app does not sign straight back in.
const SIGNED_OUT_KEY = 'pinfold.signed-out';

export function App() {
  const client = useMemo(() => createApiClient(), []);
  const [session, setSession] = useState<Session | null>(() => {
    const credentials = loadCredentials(sessionStorage);
    return credentials ? { credentials } : null;
  });
  const [notice, setNotice] = useState<string | null>(null);
  const [autoSigningIn, setAutoSigningIn] = useState<boolean>(
    () => session === null && desktopBridge() !== null && sessionStorage.getItem(SIGNED_OUT_KEY) === null,
  );

  useEffect(() => {
    const bridge = desktopBridge();
    if (!autoSigningIn || !bridge) return;
    const controller = new AbortController();
    void (async () => {
      try {
        const ownerKey = await bridge.getOwnerKey();
        if (!ownerKey || controller.signal.aborted) return;
        const credentials = { accessKey: ownerKey.access_key, accessSecret: ownerKey.access_secret };
        const usage = await client.stats(credentials, controller.signal);
        // The owner secret stays with the desktop app; it is not copied into sessionStorage.
        if (!controller.signal.aborted) setSession({ credentials, usage });
      } catch (error) {
        if (!controller.signal.aborted) setNotice(describeError(error));
      } finally {
        if (!controller.signal.aborted) setAutoSigningIn(false);
      }
    })();
    return () => controller.abort();
  }, [autoSigningIn, client]);

  const signedIn = useCallback((credentials: Credentials, usage: AccountUsage) => {
    saveCredentials(sessionStorage, credentials);
    sessionStorage.removeItem(SIGNED_OUT_KEY);
    setNotice(null);
    setSession({ credentials, usage });
  }, []);

  const signOut = useCallback((message: string | null) => {
    clearCredentials(sessionStorage);
    sessionStorage.setItem(SIGNED_OUT_KEY, '1');
    setNotice(message);
    setSession(null);
  }, []);

  useEffect(() => {
    document.title = session ? 'Overview · Pinfold' : 'Sign in · Pinfold';
  }, [session]);

  return (
    <>
      <AppHeader onSignOut={session ? () => signOut(null) : undefined} />
      <main id="content" className="content">
        {session ? (
          <OverviewPage
            client={client}
            credentials={session.credentials}
            initialUsage={session.usage}
            onUnauthorized={(message) => signOut(`${message} Sign in again.`)}
          />
        ) : autoSigningIn ? (
          <p className="status" role="status">
            Signing in…
          </p>
        ) : (
          <SignInPage client={client} notice={notice} onSignedIn={signedIn} />
        )}
      </main>
    </>
  );
}
