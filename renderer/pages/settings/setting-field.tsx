import type { ReactNode } from 'react';
import type { SettingView } from '../../../shared/api-types.js';
import { Checkbox } from '../../components/checkbox.js';
import { Select } from '../../components/select.js';
import { TextAreaField, TextField } from '../../components/text-field.js';
import type { FieldValue, SettingKind } from './setting-drafts.js';
import { SettingNote } from './setting-note.js';

/** One setting's field as a group declares it. */
export interface SettingFieldSpec {
  kind: SettingKind;
  label: string;
  /** What the setting does, under the field. */
  about: ReactNode;
  /** A choice's options. */
  options?: ReadonlyArray<{ value: string; label: string }>;
  /** A list's rows. */
  rows?: number;
}

export interface SettingFieldProps {
  spec: SettingFieldSpec;
  setting: SettingView<unknown>;
  value: FieldValue;
  onChange: (value: FieldValue) => void;
  /** The service's reason for refusing this setting's value. */
  error: string | null;
  restartHow: string;
}

/** A setting's control with its note; a value a flag pins cannot be edited here. */
export function SettingField({ spec, setting, value, onChange, error, restartHow }: SettingFieldProps) {
  const hint = <SettingNote about={spec.about} setting={setting} restartHow={restartHow} />;
  const disabled = setting.pinned_by !== null;
  if (spec.kind === 'switch') {
    return <Checkbox label={spec.label} hint={hint} checked={value === true} disabled={disabled} onChange={(event) => onChange(event.target.checked)} />;
  }
  const text = typeof value === 'string' ? value : '';
  if (spec.kind === 'choice') {
    return <Select label={spec.label} hint={hint} options={spec.options ?? []} value={text} disabled={disabled} onChange={onChange} />;
  }
  if (spec.kind === 'list') {
    return (
      <TextAreaField
        label={spec.label}
        hint={hint}
        error={error}
        rows={spec.rows ?? 3}
        spellCheck={false}
        className="setting-list"
        value={text}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value)}
      />
    );
  }
  return (
    <TextField
      label={spec.label}
      hint={hint}
      error={error}
      inputMode="numeric"
      className="setting-number"
      value={text}
      disabled={disabled}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}
