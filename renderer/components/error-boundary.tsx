import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Button } from './button.js';
import { EmptyState } from './empty-state.js';

export interface ErrorBoundaryProps {
  children: ReactNode;
  /** When any of these change (the URL, the refresh signal), the boundary tries its children again. */
  resetKeys: readonly unknown[];
}

interface ErrorBoundaryState {
  error: Error | null;
  keys: readonly unknown[];
}

/**
 * A page that fails to render (or whose code cannot be loaded) shows why, with Try again and Reload,
 * instead of taking the whole window down with it. The shell stays, so the user can go elsewhere.
 */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { error: null, keys: this.props.resetKeys };

  static getDerivedStateFromError(error: unknown): Partial<ErrorBoundaryState> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  static getDerivedStateFromProps(props: ErrorBoundaryProps, state: ErrorBoundaryState): Partial<ErrorBoundaryState> | null {
    const changed = props.resetKeys.length !== state.keys.length || props.resetKeys.some((key, index) => !Object.is(key, state.keys[index]));
    return changed ? { error: null, keys: props.resetKeys } : null;
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    // Kept in the console for a bug report; the page shows the message.
    console.error('page failed', error, info.componentStack);
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <EmptyState
        icon="alert"
        title="This page could not be shown"
        actions={
          <>
            <Button variant="primary" onClick={() => this.setState({ error: null })}>
              Try again
            </Button>
            <Button onClick={() => window.location.reload()}>Reload the window</Button>
          </>
        }
      >
        {error.message}
      </EmptyState>
    );
  }
}
