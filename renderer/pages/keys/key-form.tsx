import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { Permission } from '../../../shared/api-types.js';
import { Button } from '../../components/button.js';
import { Checkbox } from '../../components/checkbox.js';
import { InlineError } from '../../components/inline-error.js';
import { TextField } from '../../components/text-field.js';
import { checkNewKey, MAX_KEY_NAME_LENGTH } from '../../lib/access-keys.js';
import { NO_PERMISSIONS, type PermissionChoice } from '../../lib/permissions.js';
import { PermissionPicker } from './permission-picker.js';
import './keys.css';

export interface NewKey {
  name: string;
  permissions: Permission[];
  /** Keep the secret in the OS keychain (desktop app only). */
  keep: boolean;
}

export interface KeyFormProps {
  /** Names already taken in the list shown, so a clash is said before the service is asked. */
  existingNames: readonly string[];
  busy: boolean;
  /** Why the service refused the key (the mutation's error), shown beside the buttons. */
  error: string | null;
  /** The desktop app can keep the secret in the OS keychain: offer it. */
  offerKeychain?: boolean;
  onSubmit: (key: NewKey) => void;
  onCancel: () => void;
}

/**
 * A new access key: a name and its permissions (admin implies the rest), checked as the service will
 * check them, each error beside its field and focus on the first one. Nothing is sent until it passes.
 */
export function KeyForm({ existingNames, busy, error, offerKeychain = false, onSubmit, onCancel }: KeyFormProps) {
  const [name, setName] = useState('');
  const [choice, setChoice] = useState<PermissionChoice>(NO_PERMISSIONS);
  const [keep, setKeep] = useState(false);
  const [errors, setErrors] = useState<{ name?: string; permissions?: string }>({});
  const nameInput = useRef<HTMLInputElement>(null);
  const form = useRef<HTMLFormElement>(null);

  useEffect(() => nameInput.current?.focus(), []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const check = checkNewKey(name, choice, existingNames);
    if (!check.ok) {
      setErrors(check.errors);
      if (check.errors.name) nameInput.current?.focus();
      else form.current?.querySelector<HTMLInputElement>('.permission-picker input:not(:disabled)')?.focus();
      return;
    }
    setErrors({});
    onSubmit({ name: check.name, permissions: check.permissions, keep: offerKeychain && keep });
  };

  return (
    <form ref={form} className="key-form" onSubmit={submit} noValidate aria-label="New access key">
      <TextField
        ref={nameInput}
        label="Name"
        value={name}
        maxLength={MAX_KEY_NAME_LENGTH * 2}
        autoComplete="off"
        spellCheck={false}
        hint="What uses the key, so you know which one to delete later: “deploy script”, “photo app”."
        error={errors.name}
        onChange={(event) => {
          setName(event.target.value);
          if (errors.name) setErrors(({ permissions }) => (permissions ? { permissions } : {}));
        }}
      />
      <PermissionPicker
        choice={choice}
        error={errors.permissions}
        onChange={(next) => {
          setChoice(next);
          if (errors.permissions) setErrors(({ name: nameError }) => (nameError ? { name: nameError } : {}));
        }}
      />
      {offerKeychain ? (
        <Checkbox
          label="Keep the secret in the OS keychain"
          hint="So you can copy it again later from this list. Only this computer's keychain holds it; without this, the secret is shown once."
          checked={keep}
          onChange={(event) => setKeep(event.target.checked)}
        />
      ) : null}
      <InlineError message={error} />
      <div className="row">
        <Button type="submit" variant="primary" busy={busy} busyLabel="Creating…">
          Create key
        </Button>
        <Button onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
