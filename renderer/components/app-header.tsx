interface AppHeaderProps {
  /** Shown as a "Sign out" button when someone is signed in. */
  onSignOut: (() => void) | undefined;
}

export function AppHeader({ onSignOut }: AppHeaderProps) {
  return (
    <header className="app-header">
      <a className="skip-link" href="#content">
        Skip to content
      </a>
      <span className="brand">
        <svg className="brand-mark" viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
          <path d="M12 2 3 7v10l9 5 9-5V7l-9-5Zm0 2.3 6.9 3.8L12 11.9 5.1 8.1 12 4.3Z" fill="currentColor" />
        </svg>
        Pinfold
      </span>
      {onSignOut ? (
        <button type="button" className="button button-quiet" onClick={onSignOut}>
          Sign out
        </button>
      ) : null}
    </header>
  );
}
