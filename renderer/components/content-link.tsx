import { Icon } from './icons.js';
import './button.css';

export interface ContentLinkProps {
  /** `/ipfs/<cid>…` or `/ipns/<name>` on the service's gateway (lib/gateway-links.ts). */
  href: string;
  /** The accessible name, also the tooltip: "Open notes.txt in a new tab". */
  label: string;
  /** Shown beside the icon; without it the link is an icon alone, sized as an IconButton. */
  text?: string;
  size?: 'md' | 'sm';
}

/**
 * Open for content: a real link to a new tab, looking like a ghost button, so it can be middle-clicked
 * or copied. It carries no key: the gateway worker (app/gateway-access.tsx) adds the window's to the
 * navigation. `noopener`: the content's tab gets no handle on this window. Not `noreferrer`: the page's
 * referrer (this origin's only, by its Referrer-Policy) is how the worker knows Back, Forward and Reload
 * of the tab are the window's.
 */
export function ContentLink({ href, label, text, size = 'md' }: ContentLinkProps) {
  const classes = ['button', 'button-ghost', text === undefined ? 'icon-button' : '', size === 'sm' ? 'button-sm' : ''].filter(Boolean).join(' ');
  return (
    <a className={classes} href={href} target="_blank" rel="noopener" aria-label={label} title={label}>
      <Icon name="external" />
      {text === undefined ? null : <span>{text}</span>}
    </a>
  );
}
