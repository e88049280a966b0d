import { useId, type InputHTMLAttributes, type ReactNode, type Ref, type TextareaHTMLAttributes } from 'react';
import './forms.css';

interface FieldFrameProps {
  label: string;
  /** Help shown under the field (what is expected), linked with aria-describedby. */
  hint?: ReactNode;
  /** What is wrong with the value; marks the field aria-invalid and is linked with aria-describedby. */
  error?: string | null | undefined;
  /** The label stays for screen readers but is not shown (a field whose purpose the layout makes plain). */
  hideLabel?: boolean;
}

/** What the control inside a field carries so that its label, hint and error reach assistive technology. */
interface ControlWiring {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/** The label, hint and error around one control, wired to it. */
function FieldFrame({
  label,
  hint,
  error,
  hideLabel = false,
  className,
  control,
}: FieldFrameProps & { className: string | undefined; control: (wiring: ControlWiring) => ReactNode }) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [error ? errorId : '', hint ? hintId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field ${className ?? ''}`}>
      <label htmlFor={id} className={hideLabel ? 'visually-hidden' : 'field-label'}>
        {label}
      </label>
      {control({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {error ? (
        <p id={errorId} className="field-error">
          {error}
        </p>
      ) : null}
      {hint ? (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

export interface TextFieldProps extends FieldFrameProps, Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  ref?: Ref<HTMLInputElement>;
}

/** A labelled text input with its hint and error wired for assistive technology. */
export function TextField({ label, hint, error, hideLabel, className, ...input }: TextFieldProps) {
  return (
    <FieldFrame
      label={label}
      hint={hint}
      error={error}
      hideLabel={hideLabel}
      className={className}
      control={(wiring) => <input type="text" {...input} {...wiring} className="input" />}
    />
  );
}

export interface TextAreaFieldProps extends FieldFrameProps, Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> {
  ref?: Ref<HTMLTextAreaElement>;
}

/** TextField for several lines (ignore patterns, a pasted key). */
export function TextAreaField({ label, hint, error, hideLabel, className, ...textarea }: TextAreaFieldProps) {
  return (
    <FieldFrame
      label={label}
      hint={hint}
      error={error}
      hideLabel={hideLabel}
      className={className}
      control={(wiring) => <textarea {...textarea} {...wiring} className="input textarea" />}
    />
  );
}
