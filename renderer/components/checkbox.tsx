import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import './forms.css';

export interface CheckboxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'id'> {
  label: ReactNode;
  hint?: ReactNode;
}

/** A native checkbox with its label (the whole line is clickable) and an optional hint. */
export function Checkbox({ label, hint, className, ...input }: CheckboxProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div className={`checkbox ${className ?? ''}`}>
      <input {...input} type="checkbox" id={id} aria-describedby={hint ? hintId : undefined} />
      <div>
        <label htmlFor={id}>{label}</label>
        {hint ? (
          <p id={hintId} className="field-hint">
            {hint}
          </p>
        ) : null}
      </div>
    </div>
  );
}
