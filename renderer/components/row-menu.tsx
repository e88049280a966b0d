import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { IconButton } from './button.js';
import './row-menu.css';

export interface RowMenuProps {
  /** The button's accessible name, naming the row: "Actions for notes.txt". */
  label: string;
  /** The row's actions, each a control with its own text (Button, ContentLink with `text`). */
  children: ReactNode;
}

/** Where the panel goes: under the button, its right edge on the button's, kept inside the window. */
function panelPlace(button: HTMLElement): { top: number; right: number } {
  const box = button.getBoundingClientRect();
  return { top: box.bottom + 4, right: Math.max(4, window.innerWidth - box.right) };
}

/**
 * A row's actions behind one button, for windows too narrow to show them side by side: a disclosure
 * (the button says whether it is open, the panel follows it in the tab order). The panel is fixed to the
 * window, so a table that scrolls sideways does not clip it; it closes on Escape (focus back on the
 * button), a click elsewhere, a scroll, or once one of its actions is chosen.
 */
export function RowMenu({ label, children }: RowMenuProps) {
  const [place, setPlace] = useState<{ top: number; right: number } | null>(null);
  const root = useRef<HTMLSpanElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const open = place !== null;

  useEffect(() => {
    if (!open) return;
    const close = () => setPlace(null);
    const away = (event: PointerEvent) => {
      if (!(event.target instanceof Node) || !root.current?.contains(event.target)) close();
    };
    const escape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      close();
      button.current?.focus();
    };
    document.addEventListener('pointerdown', away);
    document.addEventListener('keydown', escape);
    window.addEventListener('scroll', close, true);
    window.addEventListener('resize', close);
    return () => {
      document.removeEventListener('pointerdown', away);
      document.removeEventListener('keydown', escape);
      window.removeEventListener('scroll', close, true);
      window.removeEventListener('resize', close);
    };
  }, [open]);

  return (
    <span className="row-menu" ref={root}>
      <IconButton
        ref={button}
        icon="more"
        label={label}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={(event) => setPlace(open ? null : panelPlace(event.currentTarget))}
      />
      {place ? (
        // A click on an action bubbles here: the panel closes once the action has its click.
        <div id={panelId} className="row-menu-panel" role="group" aria-label={label} style={place} onClick={() => setPlace(null)}>
          {children}
        </div>
      ) : null}
    </span>
  );
}
