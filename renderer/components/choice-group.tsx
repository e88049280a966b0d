import { useId } from 'react';
import './forms.css';

export interface ChoiceGroupProps<V extends string> {
  legend: string;
  options: ReadonlyArray<{ value: V; label: string }>;
  value: V;
  onChange: (value: V) => void;
  hint?: string;
  /** While a change is saved: the choices cannot be changed again. */
  disabled?: boolean;
}

/** Radio buttons in a fieldset: one choice out of a few, all visible (System / Light / Dark). */
export function ChoiceGroup<V extends string>({ legend, options, value, onChange, hint, disabled = false }: ChoiceGroupProps<V>) {
  const name = useId();
  const hintId = `${name}-hint`;
  return (
    <fieldset className="choice-group" disabled={disabled} aria-describedby={hint ? hintId : undefined}>
      <legend>{legend}</legend>
      <div className="choice-row">
        {options.map((option) => (
          <label key={option.value} className="choice">
            <input type="radio" name={name} value={option.value} checked={value === option.value} onChange={() => onChange(option.value)} />
            {option.label}
          </label>
        ))}
      </div>
      {hint ? (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      ) : null}
    </fieldset>
  );
}
