import { OptionText } from './option-text.js';

/** Why an action on a table row failed (Open, Pin again), under the row's name; nothing when none did. */
export function RowFailure({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <span className="field-error" role="alert">
      <OptionText text={message} />
    </span>
  );
}
