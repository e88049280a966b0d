/**
 * The frame around every signed-in page: skip link, header (account, plan, Sign out), the connectivity
 * banner, the main navigation (a Menu button at narrow widths) and the page. After a navigation, focus
 * moves to the new page's h1 so keyboard and screen-reader users land on it.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { Tag } from '../components/status-badge.js';
import { Button, IconButton } from '../components/button.js';
import { BrandMark, Icon } from '../components/icons.js';
import { useAccount } from './account.js';
import { ConnectivityBanner } from './connectivity-banner.js';
import { preloadPages } from './pages.js';
import { navItemFor, navItemsFor } from './routes.js';
import { useSessionControl } from './session.js';
import './shell.css';

export function Shell({ children }: { children: ReactNode }) {
  const [location] = useLocation();
  // The narrow-screen menu is open for the page it was opened on: any navigation closes it.
  const [menuOpenAt, setMenuOpenAt] = useState<string | null>(null);
  const menuOpen = menuOpenAt === location;
  const main = useRef<HTMLElement>(null);
  const first = useRef(true);

  // Every page's code, fetched while the window is idle: later navigations need no network.
  useEffect(() => {
    const timer = setTimeout(preloadPages, 1000);
    return () => clearTimeout(timer);
  }, []);

  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    // Lazy pages may render a frame later: look for the new h1 for a moment. While the new page loads,
    // Suspense keeps the old one in the DOM, hidden: only a title that is shown counts.
    let frame = 0;
    let tries = 0;
    const focusTitle = () => {
      const titles = main.current?.querySelectorAll<HTMLElement>('[data-page-title]') ?? [];
      const title = [...titles].find((candidate) => candidate.getClientRects().length > 0);
      if (title) title.focus();
      else if (tries++ < 120) frame = requestAnimationFrame(focusTitle);
    };
    frame = requestAnimationFrame(focusTitle);
    return () => cancelAnimationFrame(frame);
  }, [location]);

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <AppHeader menuOpen={menuOpen} onToggleMenu={() => setMenuOpenAt(menuOpen ? null : location)} />
      <ConnectivityBanner />
      <div className="shell-body">
        <MainNav open={menuOpen} current={location} />
        <main id="main" ref={main} className="shell-main" tabIndex={-1}>
          {children}
        </main>
      </div>
    </div>
  );
}

function AppHeader({ menuOpen, onToggleMenu }: { menuOpen: boolean; onToggleMenu: () => void }) {
  const { signOut } = useSessionControl();
  const { usage } = useAccount();
  const [signingOut, setSigningOut] = useState(false);
  return (
    <header className="app-header">
      <IconButton
        className="menu-button"
        icon={menuOpen ? 'close' : 'menu'}
        label="Menu"
        aria-expanded={menuOpen}
        aria-controls="main-nav"
        onClick={onToggleMenu}
      />
      <Link href="/overview" className="brand">
        <BrandMark />
        <span>Pinfold</span>
      </Link>
      <div className="header-account" data-testid="header-account">
        {usage ? (
          <>
            <span className="header-account-name" data-testid="account-name" title={usage.email || usage.name}>
              {usage.name || usage.email || 'Account'}
            </span>
            <Tag>{`${usage.plan} plan`}</Tag>
          </>
        ) : null}
      </div>
      <Button
        variant="ghost"
        icon="signOut"
        busy={signingOut}
        busyLabel="Signing out…"
        onClick={() => {
          setSigningOut(true);
          void signOut();
        }}
      >
        Sign out
      </Button>
    </header>
  );
}

function MainNav({ open, current }: { open: boolean; current: string }) {
  const { isPartner } = useAccount();
  const active = navItemFor(current);
  return (
    <nav aria-label="Main" id="main-nav" className={open ? 'main-nav is-open' : 'main-nav'}>
      <ul>
        {navItemsFor(isPartner === true).map((item) => (
          <li key={item.path}>
            <Link href={item.path} className="nav-link" aria-current={active?.path === item.path ? 'page' : undefined}>
              <Icon name={item.icon} size={18} />
              <span>{item.label}</span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
