import { Button } from './button.js';
import { Icon } from './icons.js';
import './feedback.css';

export interface InlineErrorProps {
  /** Nothing is shown (but the live region stays) when null. */
  message: string | null;
  /** Offers "Retry" beside the message. */
  onRetry?: (() => void) | undefined;
  id?: string;
}

/**
 * An error next to the action that caused it. The alert region is always in the page, empty when there
 * is nothing to say: screen readers announce text added to a live region reliably, not a region that
 * appears together with its text.
 */
export function InlineError({ message, onRetry, id }: InlineErrorProps) {
  return (
    <div id={id} role="alert" className={message ? 'inline-error' : 'inline-error is-empty'}>
      {message ? (
        <>
          <Icon name="alert" className="inline-error-icon" />
          <span className="inline-error-text">{message}</span>
          {onRetry ? (
            <Button size="sm" variant="secondary" onClick={onRetry}>
              Retry
            </Button>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
