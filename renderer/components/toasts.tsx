import { createContext, useCallback, useContext, useEffect, useMemo, useReducer, useRef, type ReactNode } from 'react';
import { toastsReducer, type Toast, type ToastTone } from '../lib/toasts.js';
import { IconButton } from './button.js';
import { Icon } from './icons.js';
import './toasts.css';

export interface Toaster {
  /** A short confirmation ("Pin removed."): announced politely, gone after a few seconds. */
  show: (message: string, tone?: ToastTone) => void;
}

const ToastContext = createContext<Toaster | null>(null);

const LIFETIME_MS: Record<ToastTone, number> = { success: 5000, info: 6000, error: 10_000 };

/** Holds the window's toasts; one, around the whole app. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, dispatch] = useReducer(toastsReducer, []);
  const nextId = useRef(1);
  const show = useCallback((message: string, tone: ToastTone = 'success') => {
    dispatch({ type: 'show', toast: { id: nextId.current++, message, tone } });
  }, []);
  const dismiss = useCallback((id: number) => dispatch({ type: 'dismiss', id }), []);
  const toaster = useMemo(() => ({ show }), [show]);
  return (
    <ToastContext.Provider value={toaster}>
      {children}
      {/* Always in the page, so additions are announced. */}
      <div className="toasts" aria-live="polite" aria-relevant="additions">
        {toasts.map((toast) => (
          <ToastItem key={toast.id} toast={toast} onDismiss={dismiss} />
        ))}
      </div>
    </ToastContext.Provider>
  );
}

function ToastItem({ toast, onDismiss }: { toast: Toast; onDismiss: (id: number) => void }) {
  useEffect(() => {
    const timer = setTimeout(() => onDismiss(toast.id), LIFETIME_MS[toast.tone]);
    return () => clearTimeout(timer);
  }, [toast.id, toast.tone, onDismiss]);
  return (
    <div className={`toast toast-${toast.tone}`}>
      <Icon name={toast.tone === 'error' ? 'error' : toast.tone === 'info' ? 'info' : 'success'} className="toast-icon" />
      <p className="toast-text">{toast.message}</p>
      <IconButton icon="close" label="Dismiss" size="sm" onClick={() => onDismiss(toast.id)} />
    </div>
  );
}

export function useToasts(): Toaster {
  const toaster = useContext(ToastContext);
  if (!toaster) throw new Error('useToasts() outside <ToastProvider>');
  return toaster;
}
