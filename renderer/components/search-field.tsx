import { useId, type InputHTMLAttributes } from 'react';
import { Icon } from './icons.js';
import './forms.css';

export interface SearchFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'id' | 'value' | 'onChange'> {
  /** The accessible name ("Search pins by name"); shown as the placeholder unless one is given. */
  label: string;
  value: string;
  onChange: (value: string) => void;
}

/**
 * A search box (role searchbox, named by a visually hidden label). It reports every keystroke; debounce
 * with useDebouncedValue (renderer/app/hooks) before calling the API.
 */
export function SearchField({ label, value, onChange, placeholder, className, ...input }: SearchFieldProps) {
  const id = useId();
  return (
    <div className={`search-field ${className ?? ''}`}>
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <Icon name="search" className="search-field-icon" />
      <input
        {...input}
        id={id}
        type="search"
        className="input"
        value={value}
        placeholder={placeholder ?? label}
        spellCheck={false}
        autoComplete="off"
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}
