import { useEffect, useRef, useState } from 'react';
import { Icon } from './icons.js';
import './button.css';

export interface CopyButtonProps {
  value: string;
  /** What is copied, for the accessible name: "CID" → "Copy CID". */
  what: string;
  /** Icon only (in table rows). Either way the button's name is "Copy <what>": several Copy buttons side by side stay apart. */
  compact?: boolean;
  size?: 'md' | 'sm';
}

const FEEDBACK_MS = 2000;

/**
 * Copies `value` to the clipboard and says so: the icon turns into a check and a polite live region
 * announces "Copied" (or why it could not), so keyboard and screen-reader users get the same feedback.
 */
export function CopyButton({ value, what, compact = false, size = 'md' }: CopyButtonProps) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setState('copied');
    } catch {
      setState('failed');
    }
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => setState('idle'), FEEDBACK_MS);
  };

  const label = `Copy ${what}`;
  const classes = ['button', 'button-ghost', compact ? 'icon-button' : '', size === 'sm' ? 'button-sm' : '', 'copy-button'].filter(Boolean).join(' ');
  return (
    <>
      <button type="button" className={classes} onClick={() => void copy()} aria-label={compact ? label : undefined} title={label}>
        <Icon name={state === 'copied' ? 'check' : 'copy'} />
        {compact ? null : (
          <span>
            {state === 'copied' ? 'Copied' : 'Copy'}
            <span className="visually-hidden"> {what}</span>
          </span>
        )}
      </button>
      <span className="visually-hidden" role="status">
        {state === 'copied' ? `Copied ${what}` : state === 'failed' ? `Could not copy the ${what}: the browser refused. Select it and copy it by hand.` : ''}
      </span>
    </>
  );
}
