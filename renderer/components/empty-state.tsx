import type { ReactNode } from 'react';
import { Icon, type IconName } from './icons.js';
import './surfaces.css';

export interface EmptyStateProps {
  icon?: IconName;
  title: string;
  /** What to do next, in a sentence. */
  children?: ReactNode;
  /** The next step as a button or link. */
  actions?: ReactNode;
}

/** What a page or table shows when there is nothing yet: never a blank, always the next step. */
export function EmptyState({ icon = 'info', title, children, actions }: EmptyStateProps) {
  return (
    <div className="empty-state">
      <span className="empty-state-icon">
        <Icon name={icon} size={22} />
      </span>
      <p className="empty-state-title">{title}</p>
      {children ? <div className="empty-state-body">{children}</div> : null}
      {actions ? <div className="empty-state-actions">{actions}</div> : null}
    </div>
  );
}
