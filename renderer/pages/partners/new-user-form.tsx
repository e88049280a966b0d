import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../components/button.js';
import { InlineError } from '../../components/inline-error.js';
import { TextField } from '../../components/text-field.js';
import { checkNewUser, MAX_EMAIL_LENGTH, MAX_USER_NAME_LENGTH, MAX_UUID_LENGTH, type NewUserFields } from '../../lib/partner-users.js';

export interface NewUserFormProps {
  busy: boolean;
  /** Why the service refused (the mutation's error). */
  error: string | null;
  onSubmit: (user: NewUserFields) => void;
  onCancel: () => void;
}

type Errors = Partial<Record<keyof NewUserFields, string>>;

/**
 * A new user of this partner: name, e-mail and the ID the partner's own system knows it by (a random
 * UUID is suggested). Checked as the service will check it, each error beside its field.
 */
export function NewUserForm({ busy, error, onSubmit, onCancel }: NewUserFormProps) {
  const [fields, setFields] = useState<NewUserFields>(() => ({ name: '', email: '', uuid: crypto.randomUUID() }));
  const [errors, setErrors] = useState<Errors>({});
  const nameInput = useRef<HTMLInputElement>(null);
  const emailInput = useRef<HTMLInputElement>(null);
  const uuidInput = useRef<HTMLInputElement>(null);
  useEffect(() => nameInput.current?.focus(), []);

  const change = (field: keyof NewUserFields, value: string) => {
    setFields((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors(({ [field]: _fixed, ...rest }) => rest);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const check = checkNewUser(fields);
    if (!check.ok) {
      setErrors(check.errors);
      const first = (['name', 'email', 'uuid'] as const).find((field) => check.errors[field] !== undefined);
      ({ name: nameInput, email: emailInput, uuid: uuidInput })[first ?? 'name'].current?.focus();
      return;
    }
    setErrors({});
    onSubmit(check.user);
  };

  return (
    <form className="partner-form" onSubmit={submit} noValidate aria-label="New user">
      <div className="partner-form-fields">
        <TextField
          ref={nameInput}
          label="Name"
          value={fields.name}
          maxLength={MAX_USER_NAME_LENGTH * 2}
          autoComplete="off"
          error={errors.name}
          onChange={(event) => change('name', event.target.value)}
        />
        <TextField
          ref={emailInput}
          label="E-mail"
          type="email"
          value={fields.email}
          maxLength={MAX_EMAIL_LENGTH * 2}
          autoComplete="off"
          spellCheck={false}
          error={errors.email}
          onChange={(event) => change('email', event.target.value)}
        />
      </div>
      <TextField
        ref={uuidInput}
        label="User ID"
        value={fields.uuid}
        maxLength={MAX_UUID_LENGTH * 2}
        autoComplete="off"
        spellCheck={false}
        className="partner-form-uuid"
        hint="How the partner API names this user (uuid). Keep the random one suggested, or use the ID your own system has for this customer; it cannot be changed later."
        error={errors.uuid}
        onChange={(event) => change('uuid', event.target.value)}
      />
      <InlineError message={error} />
      <div className="row">
        <Button type="submit" variant="primary" busy={busy} busyLabel="Creating…">
          Create user
        </Button>
        <Button onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
