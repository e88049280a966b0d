import type { ReactNode } from 'react';
import './switch.css';

export interface SwitchProps {
  checked: boolean;
  /** The accessible name: what is switched ("Public: blog"). */
  label: string;
  /** What the switch shows beside it (its state in words); none for a switch in a table cell with its own header. */
  text?: ReactNode;
  /** While the change runs: the switch stays focusable but ignores clicks. */
  busy?: boolean;
  disabled?: boolean;
  onChange: (next: boolean) => void;
}

/**
 * An on/off control (role="switch", aria-checked), a button so Space and Enter both flip it. Its state is
 * shown by the thumb's place and, where there is room, in words: never by colour alone.
 */
export function Switch({ checked, label, text, busy = false, disabled = false, onChange }: SwitchProps) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={label}
      aria-busy={busy || undefined}
      aria-disabled={busy || undefined}
      disabled={disabled}
      className={`switch${checked ? ' is-on' : ''}${busy ? ' is-busy' : ''}`}
      onClick={() => {
        if (!busy) onChange(!checked);
      }}
    >
      <span className="switch-track" aria-hidden="true">
        <span className="switch-thumb" />
      </span>
      {text !== undefined ? <span className="switch-text">{text}</span> : null}
    </button>
  );
}
