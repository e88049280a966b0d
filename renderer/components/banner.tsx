import type { ReactNode } from 'react';
import { Icon, type IconName } from './icons.js';
import './feedback.css';

export interface BannerProps {
  tone: 'info' | 'warning' | 'danger';
  children: ReactNode;
  /** A button or two (Retry). */
  actions?: ReactNode;
}

const ICONS: Record<BannerProps['tone'], IconName> = { info: 'info', warning: 'alert', danger: 'error' };

/** A window-wide message above the page (the service is unreachable); the caller makes it a live region. */
export function Banner({ tone, children, actions }: BannerProps) {
  return (
    <div className={`banner banner-${tone}`}>
      <Icon name={ICONS[tone]} className="banner-icon" size={18} />
      <div className="banner-text">{children}</div>
      {actions ? <div className="row">{actions}</div> : null}
    </div>
  );
}

/** A calm note inside a page or form ("Your session ended. Sign in again."). */
export function Notice({ children, role }: { children: ReactNode; role?: 'status' }) {
  return (
    <div className="notice" role={role}>
      <Icon name="info" />
      <div>{children}</div>
    </div>
  );
}
