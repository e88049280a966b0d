import { useEffect, type ReactNode } from 'react';
import './page.css';

export interface PageProps {
  /** The page's h1 and the window title ("Pins · Pinfold"). */
  title: string;
  /** One line under the title: what this page is for. */
  description?: ReactNode;
  /** Buttons at the right of the title (the page's main actions). */
  actions?: ReactNode;
  children?: ReactNode;
}

/**
 * The frame of every page: one h1 (the target the shell moves focus to after a navigation, so screen
 * readers announce the new page), the description, the main actions, then the content.
 */
export function Page({ title, description, actions, children }: PageProps) {
  useEffect(() => {
    document.title = `${title} · Pinfold`;
  }, [title]);
  return (
    <div className="page">
      <header className="page-header">
        <div className="page-heading">
          <h1 tabIndex={-1} data-page-title="">
            {title}
          </h1>
          {description ? <p className="page-description">{description}</p> : null}
        </div>
        {actions ? <div className="page-actions">{actions}</div> : null}
      </header>
      {children}
    </div>
  );
}
