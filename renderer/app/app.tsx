/**
 * The app: theme, toasts, session, then either the sign-in page or the shell with the page the URL
 * names. A URL opened while signed out is remembered and shown after sign-in.
 */
import { Suspense, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { Link, Redirect, Route, Switch, useLocation, useSearch } from 'wouter';
import { Icon } from '../components/icons.js';
import { Page } from '../components/page.js';
import { EmptyState } from '../components/empty-state.js';
import { ErrorBoundary } from '../components/error-boundary.js';
import { ToastProvider } from '../components/toasts.js';
import { DataProvider } from '../data/data-provider.js';
import { EventsProvider, useEventHub } from '../events/events-provider.js';
import { SignInPage } from '../pages/sign-in/sign-in-page.js';
import { WelcomePanel } from '../pages/welcome/welcome-panel.js';
import { useAccount } from './account.js';
import { FilesPage, KeysPage, NamesPage, OverviewPage, PartnersPage, PinsPage, SettingsPage, SyncFolderPage, SyncPage, ViewPage } from './pages.js';
import { HOME_PATH, rememberReturnTarget, SIGN_IN_PATH, takeReturnTarget, VIEW_PATH } from './routes.js';
import { GatewayAccess } from './gateway-access.js';
import { ServicesContext, useServices } from './services-context.js';
import type { AppServices } from './services.js';
import { SessionProvider, useApi, useSessionControl } from './session.js';
import { Shell } from './shell.js';
import type { SignInLink } from './sign-in-code.js';
import { ThemeFromService } from './theme-from-service.js';
import { ThemeProvider } from './theme.js';
import '../styles/tokens.css';
import '../styles/base.css';

export function App({ services, signInLink }: { services: AppServices; signInLink: SignInLink | null }) {
  useEffect(() => () => services.connectivity.dispose(), [services]);
  return (
    <ServicesContext.Provider value={services}>
      <ThemeProvider>
        <ToastProvider>
          <SessionProvider signInLink={signInLink}>
            <Switch>
              <Route path={SIGN_IN_PATH}>
                <SignInRoute />
              </Route>
              <Route>
                <RequireSession>
                  <Pages />
                </RequireSession>
              </Route>
            </Switch>
          </SessionProvider>
        </ToastProvider>
      </ThemeProvider>
    </ServicesContext.Provider>
  );
}

function Pages() {
  const [location] = useLocation();
  const { refresh } = useServices();
  const epoch = useSyncExternalStore(refresh.epoch.subscribe, refresh.epoch.get);
  return (
    <Shell>
      <WelcomePanel />
      <ErrorBoundary resetKeys={[location, epoch]}>
        <Suspense fallback={<PageLoading />}>
          <Switch>
            <Route path="/">
              <Redirect to={HOME_PATH} replace />
            </Route>
            <Route path="/overview" component={OverviewPage} />
            <Route path="/files" component={FilesPage} />
            <Route path="/pins" component={PinsPage} />
            <Route path="/names" component={NamesPage} />
            <Route path="/keys" component={KeysPage} />
            <Route path="/sync" component={SyncPage} />
            <Route path="/sync/:id">{(params) => <SyncFolderPage id={params.id} />}</Route>
            <Route path="/partners">
              <PartnersOnly>
                <PartnersPage />
              </PartnersOnly>
            </Route>
            <Route path="/settings" component={SettingsPage} />
            <Route path={VIEW_PATH} component={ViewPage} />
            <Route>
              <NotFound />
            </Route>
          </Switch>
        </Suspense>
      </ErrorBoundary>
    </Shell>
  );
}

/** Signed in: the shell; signing in: a wait; signed out: to /signin, remembering where the user was going. */
function RequireSession({ children }: { children: ReactNode }) {
  const { state } = useSessionControl();
  const [location] = useLocation();
  const search = useSearch();
  if (state.status === 'signed-in') {
    return (
      <EventsProvider>
        <SessionData key={state.credentials.accessKey}>
          <GatewayAccess credentials={state.credentials} />
          <ThemeFromService />
          {children}
        </SessionData>
      </EventsProvider>
    );
  }
  if (state.status === 'signing-in') return <SigningIn />;
  return <RedirectToSignIn target={`${location}${search ? `?${search}` : ''}`} remember={state.reason !== 'signed-out'} />;
}

/** The request cache of the signed-in session: its client, the events that keep it current, and the refresh signal. */
function SessionData({ children }: { children: ReactNode }) {
  const api = useApi();
  const events = useEventHub();
  const { refresh } = useServices();
  return (
    <DataProvider api={api} events={events} refreshes={refresh.epoch}>
      {children}
    </DataProvider>
  );
}

function RedirectToSignIn({ target, remember }: { target: string; remember: boolean }) {
  useEffect(() => {
    if (remember) rememberReturnTarget(sessionStorage, target);
  }, [target, remember]);
  return <Redirect to={SIGN_IN_PATH} replace />;
}

/** /signin: the form; once signed in, on to the remembered page (or the Overview). */
function SignInRoute() {
  const { state } = useSessionControl();
  if (state.status === 'signed-in') return <LeaveSignIn />;
  if (state.status === 'signing-in') return <SigningIn />;
  return <SignInPage notice={state.notice} />;
}

function LeaveSignIn() {
  const [, navigate] = useLocation();
  // Read once: StrictMode runs effects twice, and the second run must go to the same place.
  const [target] = useState(() => takeReturnTarget(sessionStorage));
  useEffect(() => navigate(target, { replace: true }), [navigate, target]);
  return null;
}

function SigningIn() {
  return (
    <div className="center-screen" role="status">
      <Icon name="spinner" className="spin" size={20} /> Signing in…
    </div>
  );
}

function PageLoading() {
  return (
    <div className="page-loading" role="status">
      <Icon name="spinner" className="spin" /> Loading…
    </div>
  );
}

/** The Partners page for partner accounts; others are told why there is nothing here. */
function PartnersOnly({ children }: { children: ReactNode }) {
  const { isPartner } = useAccount();
  if (isPartner === undefined) return <PageLoading />;
  if (isPartner) return <>{children}</>;
  return (
    <Page title="Partners">
      <EmptyState icon="partners" title="This account is not a partner account">
        The partner pages manage the accounts a partner creates. Ask the owner of this Pinfold service to run{' '}
        <code>pinfold account partner &lt;uuid&gt; on</code> for your account.
      </EmptyState>
    </Page>
  );
}

function NotFound() {
  return (
    <Page title="Page not found">
      <EmptyState icon="alert" title="There is no page at this address" actions={<Link href={HOME_PATH}>Go to the Overview</Link>}>
        Choose a page in the navigation.
      </EmptyState>
    </Page>
  );
}
