import { useState } from 'react';
import type { SyncFolderView } from '../../../shared/api-types.js';
import { useFollowFolder } from '../../data/sync-actions.js';
import { desktopBridge } from '../../desktop-bridge.js';
import { followInputProblems, parseGatewayLines, type FollowField, type FollowRefusal } from '../../lib/followed-folders.js';
import { describeError } from '../../lib/messages.js';

export interface FollowForm {
  values: Readonly<Record<FollowField, string>>;
  /** A field typed in: its problem and the service's refusal of it go. */
  edit: (field: FollowField, value: string) => void;
  /** What is wrong with a field: the form's own check, or the service's refusal naming it. */
  fieldError: (field: FollowField) => string | null;
  /** What is wrong with none of the fields in particular, for above the buttons. */
  formError: string | null;
  pending: boolean;
  /** Checks the fields, then follows; resolves the folder's row, or null (the form says why). */
  submit: () => Promise<SyncFolderView | null>;
  /** The desktop app's folder picker, for the folder path; null in a browser. */
  choose: (() => Promise<void>) | null;
  reset: () => void;
}

const EMPTY: Record<FollowField, string> = { name: '', path: '', from: '' };

/**
 * The follow form's fields and what is wrong with them: checked before asking the service, whose refusal
 * goes beside the field it names (anything else above the buttons). A folder dropped on the page while
 * the form is open (`droppedPath`) becomes the folder path.
 */
export function useFollowForm(droppedPath: string | null): FollowForm {
  const bridge = desktopBridge();
  const follow = useFollowFolder();
  const [values, setValues] = useState(EMPTY);
  const [problems, setProblems] = useState<Partial<Record<FollowField, string>>>({});
  const [refusal, setRefusal] = useState<FollowRefusal | null>(null);
  const [pickError, setPickError] = useState<string | null>(null);

  const forget = (field: FollowField) => {
    setProblems((current) => ({ ...current, [field]: undefined }));
    setRefusal((current) => (current?.field === field ? null : current));
  };
  const edit = (field: FollowField, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    forget(field);
    follow.clearError();
  };

  // A new drop fills the folder path (adjusted while rendering: the drop is the page's state, the field is ours).
  const [seenDrop, setSeenDrop] = useState(droppedPath);
  if (droppedPath !== seenDrop) {
    setSeenDrop(droppedPath);
    if (droppedPath) {
      setValues((current) => ({ ...current, path: droppedPath }));
      forget('path');
    }
  }

  const reset = () => {
    setValues(EMPTY);
    setProblems({});
    setRefusal(null);
    setPickError(null);
    follow.clearError();
  };

  const submit = async (): Promise<SyncFolderView | null> => {
    const found = followInputProblems(values.name, values.path);
    setProblems(found);
    setRefusal(null);
    if (Object.keys(found).length > 0) return null;
    const from = parseGatewayLines(values.from);
    const result = await follow.run({ name: values.name.trim(), path: values.path.trim(), from: from.length > 0 ? from : undefined });
    if (!result.ok) return null;
    if ('refused' in result.value) {
      setRefusal(result.value.refused);
      return null;
    }
    reset();
    return result.value.followed;
  };

  const choose = async () => {
    if (!bridge) return;
    setPickError(null);
    try {
      const picked = await bridge.pickFolder();
      if (picked) edit('path', picked);
    } catch (error) {
      setPickError(`The desktop app could not open the folder picker: ${describeError(error)}`);
    }
  };

  return {
    values,
    edit,
    fieldError: (field) => problems[field] ?? (refusal?.field === field ? refusal.message : null),
    // A refusal placed beside its field is not said twice above the buttons.
    formError: (refusal?.field ? null : (refusal?.message ?? follow.error)) ?? pickError,
    pending: follow.pending,
    submit,
    choose: bridge ? choose : null,
    reset,
  };
}
