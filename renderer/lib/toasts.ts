/** The toast queue as a pure reducer: newest last, at most three, the same message shown once. */
export type ToastTone = 'success' | 'info' | 'error';

export interface Toast {
  id: number;
  message: string;
  tone: ToastTone;
}

export type ToastAction = { type: 'show'; toast: Toast } | { type: 'dismiss'; id: number };

export const MAX_TOASTS = 3;

export function toastsReducer(toasts: readonly Toast[], action: ToastAction): Toast[] {
  switch (action.type) {
    case 'show': {
      const others = toasts.filter((toast) => toast.message !== action.toast.message);
      return [...others, action.toast].slice(-MAX_TOASTS);
    }
    case 'dismiss':
      return toasts.filter((toast) => toast.id !== action.id);
  }
}
