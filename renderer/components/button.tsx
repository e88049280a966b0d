import type { ButtonHTMLAttributes, ReactNode, Ref } from 'react';
import { Icon, type IconName } from './icons.js';
import './button.css';

export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'ghost';

export interface ButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'children'> {
  variant?: ButtonVariant;
  size?: 'md' | 'sm';
  icon?: IconName;
  /** Shows a spinner and `busyLabel`, and ignores clicks, while an action runs. */
  busy?: boolean;
  /** What the button says while busy ("Saving…"); defaults to its children. */
  busyLabel?: ReactNode;
  children: ReactNode;
  ref?: Ref<HTMLButtonElement>;
}

/**
 * The one button. `type="button"` unless said otherwise (a form submits only with an explicit
 * type="submit"); busy keeps it focusable but inert (aria-disabled), so focus does not jump away.
 */
export function Button({ variant = 'secondary', size = 'md', icon, busy = false, busyLabel, children, className, type, onClick, ...rest }: ButtonProps) {
  const classes = ['button', `button-${variant}`, size === 'sm' ? 'button-sm' : '', busy ? 'is-busy' : '', className ?? ''].filter(Boolean).join(' ');
  return (
    <button
      {...rest}
      type={type ?? 'button'}
      className={classes}
      aria-busy={busy || undefined}
      aria-disabled={busy || rest['aria-disabled'] || undefined}
      onClick={(event) => {
        if (busy) {
          event.preventDefault();
          return;
        }
        onClick?.(event);
      }}
    >
      {busy ? <Icon name="spinner" className="spin" /> : icon ? <Icon name={icon} /> : null}
      <span>{busy && busyLabel !== undefined ? busyLabel : children}</span>
    </button>
  );
}

export interface IconButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'children' | 'aria-label'> {
  /** The accessible name, also shown as a tooltip: an icon alone names nothing. */
  label: string;
  icon: IconName;
  variant?: 'ghost' | 'secondary' | 'danger';
  size?: 'md' | 'sm';
  /** A spinner in place of the icon, and clicks ignored, while its action runs (focus stays on it). */
  busy?: boolean;
  ref?: Ref<HTMLButtonElement>;
}

export function IconButton({ label, icon, variant = 'ghost', size = 'md', busy = false, className, type, onClick, ...rest }: IconButtonProps) {
  const classes = ['button', 'icon-button', `button-${variant}`, size === 'sm' ? 'button-sm' : '', busy ? 'is-busy' : '', className ?? '']
    .filter(Boolean)
    .join(' ');
  return (
    <button
      {...rest}
      type={type ?? 'button'}
      className={classes}
      aria-label={label}
      title={label}
      aria-busy={busy || undefined}
      aria-disabled={busy || rest['aria-disabled'] || undefined}
      onClick={(event) => {
        if (busy) {
          event.preventDefault();
          return;
        }
        onClick?.(event);
      }}
    >
      {busy ? <Icon name="spinner" className="spin" /> : <Icon name={icon} />}
    </button>
  );
}
