interface ErrorMessageProps {
  message: string | null;
  id?: string;
}

/**
 * An alert region that is always in the page, empty when there is nothing to say: screen readers
 * announce text added to a live region reliably, not a region that appears together with its text.
 */
export function ErrorMessage({ message, id }: ErrorMessageProps) {
  return (
    <div id={id} role="alert" className="error-message">
      {message}
    </div>
  );
}
