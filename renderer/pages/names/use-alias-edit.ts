import { useState } from 'react';
import type { IpnsRecordView } from '../../../shared/api-types.js';
import { useSetAlias } from '../../data/names.js';
import type { NameColumnsInit } from './name-columns.js';

export type AliasEdit = Pick<NameColumnsInit, 'editing' | 'aliasBusy' | 'aliasError' | 'onEdit' | 'onCancelEdit' | 'onSaveAlias'>;

/**
 * A name's alias edited in place, one row at a time: saved (the request cache shows it), or its error
 * kept under the field; an unchanged alias only closes the edit.
 */
export function useAliasEdit(): AliasEdit {
  const [editing, setEditing] = useState<string | null>(null);
  const save = useSetAlias();

  const saveAlias = async (name: IpnsRecordView, alias: string) => {
    const wanted = alias.trim();
    if (wanted === name.alias) {
      setEditing(null);
      return;
    }
    const result = await save.run({ name: name.name, alias: wanted });
    if (result.ok) setEditing(null);
  };

  return {
    editing,
    aliasBusy: save.pending,
    aliasError: save.error,
    onEdit: (name) => {
      save.clearError();
      setEditing(name.name);
    },
    onCancelEdit: () => setEditing(null),
    onSaveAlias: (name, alias) => void saveAlias(name, alias),
  };
}
