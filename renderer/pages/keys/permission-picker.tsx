import { useId } from 'react';
import { Checkbox } from '../../components/checkbox.js';
import { PERMISSIONS } from '../../../shared/api-types.js';
import { isGranted, PERMISSION_INFO, togglePermission, type PermissionChoice } from '../../lib/permissions.js';

export interface PermissionPickerProps {
  choice: PermissionChoice;
  onChange: (choice: PermissionChoice) => void;
  /** Why the choice cannot be sent (none chosen); linked to the group for screen readers. */
  error?: string | undefined;
  disabled?: boolean;
}

/**
 * The five permissions as checkboxes, each with what it allows. Admin is every permission: while it is
 * ticked the others show as ticked and cannot be unticked, and say so.
 */
export function PermissionPicker({ choice, onChange, error, disabled = false }: PermissionPickerProps) {
  const errorId = useId();
  return (
    <fieldset className="permission-picker" aria-describedby={error ? errorId : undefined}>
      <legend className="field-label">Permissions</legend>
      {error ? (
        <p id={errorId} className="field-error">
          {error}
        </p>
      ) : null}
      <div className="permission-options">
        {PERMISSIONS.map((permission) => {
          const implied = permission !== 'admin' && choice.admin;
          return (
            <Checkbox
              key={permission}
              className={permission === 'admin' ? 'permission-admin' : undefined}
              label={PERMISSION_INFO[permission].label}
              hint={implied ? `Included in Admin. ${PERMISSION_INFO[permission].description}` : PERMISSION_INFO[permission].description}
              checked={isGranted(choice, permission)}
              disabled={disabled || implied}
              onChange={(event) => onChange(togglePermission(choice, permission, event.target.checked))}
            />
          );
        })}
      </div>
    </fieldset>
  );
}
