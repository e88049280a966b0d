/**
 * A page in its own chunk, which can also be loaded ahead of time: once signed in, the shell preloads
 * every page while the window is idle, so a later navigation needs no network (the service may be
 * stopped by then, and a failed module fetch is remembered by the browser for the page's lifetime).
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

export interface LazyPage<P extends object> {
  Component: LazyExoticComponent<ComponentType<P>>;
  preload: () => void;
}

export function lazyPage<P extends object>(load: () => Promise<ComponentType<P>>): LazyPage<P> {
  let loading: Promise<{ default: ComponentType<P> }> | null = null;
  const start = () => {
    loading ??= load().then(
      (component) => ({ default: component }),
      (error: unknown) => {
        // Forget a failed load, so a later try fetches again instead of failing from memory.
        loading = null;
        throw error;
      },
    );
    return loading;
  };
  return {
    Component: lazy(start),
    preload: () => void start().catch(() => undefined),
  };
}
