interface ErrorMessageProps {
  message: string | null;
  id?: string;
}

/** An alert region; rendered empty (not removed) so screen readers announce each new message. */
export function ErrorMessage({ message, id }: ErrorMessageProps) {
  return (
    <div id={id} role="alert" className={message ? 'error-message' : 'error-message empty'}>
      {message}
    </div>
  );
}
