import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { IconButton } from './button.js';
import './inline-edit.css';

export interface InlineEditProps {
  /** The value as stored. */
  value: string;
  /** What the value shows as (a muted "No name" for an empty one); defaults to the value. */
  display?: ReactNode;
  /** The field's accessible name: "Name of report.pdf". */
  label: string;
  /** The edit button's accessible name: "Rename report.pdf". */
  editLabel: string;
  /** Editing now (the page keeps which row is being edited: one at a time). */
  editing: boolean;
  onEdit: () => void;
  onCancel: () => void;
  /** Saves the new value; the page ends editing when the service took it. */
  onSave: (value: string) => void;
  busy?: boolean;
  /** Why saving failed, or what is wrong with the value; shown under the field. */
  error?: string | null;
  maxLength?: number;
  placeholder?: string;
}

/**
 * A value edited where it is shown (a pin's name, a name's alias): the value and a pencil button; in
 * edit mode a field with Save and Cancel, Enter saves and Escape cancels, and focus goes back to the
 * pencil afterwards. Its error sits under the field, next to what caused it.
 */
export function InlineEdit({
  value,
  display,
  label,
  editLabel,
  editing,
  onEdit,
  onCancel,
  onSave,
  busy = false,
  error,
  maxLength,
  placeholder,
}: InlineEditProps) {
  const [draft, setDraft] = useState(value);
  const input = useRef<HTMLInputElement>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(editing);
  const errorId = useId();

  useEffect(() => {
    if (editing && !wasEditing.current) {
      setDraft(value);
      input.current?.focus();
      input.current?.select();
    } else if (!editing && wasEditing.current) {
      editButton.current?.focus();
    }
    wasEditing.current = editing;
  }, [editing, value]);

  if (!editing) {
    return (
      <span className="inline-edit">
        <span className="inline-edit-value">{display ?? value}</span>
        <IconButton ref={editButton} icon="edit" size="sm" label={editLabel} className="inline-edit-button" onClick={onEdit} />
      </span>
    );
  }
  return (
    <span className="inline-edit is-editing">
      <span className="inline-edit-row">
        <input
          ref={input}
          className="input inline-edit-input"
          aria-label={label}
          value={draft}
          maxLength={maxLength}
          placeholder={placeholder}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          readOnly={busy}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              if (!busy) onSave(draft);
            } else if (event.key === 'Escape') {
              event.preventDefault();
              if (!busy) onCancel();
            }
          }}
        />
        <IconButton icon="check" size="sm" variant="secondary" label="Save" busy={busy} onClick={() => onSave(draft)} />
        <IconButton icon="close" size="sm" label="Cancel" disabled={busy} onClick={onCancel} />
      </span>
      {error ? (
        <span id={errorId} className="field-error" role="alert">
          {error}
        </span>
      ) : null}
    </span>
  );
}
