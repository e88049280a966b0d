/**
 * Clean shutdown: Electron's `before-quit` is synchronous, the service's close is not. The first
 * before-quit is held back until the service has closed (database closed, data-folder lock released),
 * then quitting resumes; later before-quit events pass.
 */
export function quitAfterClose(close: () => Promise<void>, quit: () => void, onError: (error: unknown) => void = () => {}) {
  let state: 'running' | 'closing' | 'closed' = 'running';
  return (event: { preventDefault(): void }): void => {
    if (state === 'closed') return;
    event.preventDefault();
    if (state === 'closing') return;
    state = 'closing';
    close()
      .catch(onError)
      .finally(() => {
        state = 'closed';
        quit();
      });
  };
}
