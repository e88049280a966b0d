import { useId, type ReactNode, type SelectHTMLAttributes } from 'react';
import './forms.css';

export interface SelectOption<V extends string> {
  value: V;
  label: string;
}

export interface SelectProps<V extends string> extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'value' | 'onChange'> {
  label: string;
  options: ReadonlyArray<SelectOption<V>>;
  value: V;
  onChange: (value: V) => void;
  hint?: ReactNode;
  hideLabel?: boolean;
  /** Label and control on one line (toolbars). */
  inline?: boolean;
}

/** A labelled native <select> over typed values. */
export function Select<V extends string>({ label, options, value, onChange, hint, hideLabel = false, inline = false, className, ...select }: SelectProps<V>) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div className={`field ${inline ? 'field-inline' : ''} ${className ?? ''}`}>
      <label htmlFor={id} className={hideLabel ? 'visually-hidden' : 'field-label'}>
        {label}
      </label>
      <select
        {...select}
        id={id}
        className="input select"
        value={value}
        aria-describedby={hint ? hintId : undefined}
        onChange={(event) => {
          const chosen = options.find((option) => option.value === event.target.value);
          if (chosen) onChange(chosen.value);
        }}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {hint ? (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
