/**
 * A signal that aborts when any of `sources` does, or after `timeoutMs`, and stays alive until then on its
 * own strength. `AbortSignal.any([…, AbortSignal.timeout(ms)])` does not: on Node 20 the timer and the
 * sources hold the composite only weakly, so a wait that nothing else references (a long-poll awaiting its
 * own abort listener) is collected at the next garbage collection and never ends. Here the sources' abort
 * listeners and an ordinary timer hold the controller. Call `dispose()` when done, so neither outlives the wait.
 */
export interface LinkedSignal {
  readonly signal: AbortSignal;
  dispose(): void;
}

export class DeadlineError extends Error {
  override readonly name = 'TimeoutError';
}

export function linkedSignal(sources: readonly (AbortSignal | undefined)[], timeoutMs?: number, timeoutReason?: () => unknown): LinkedSignal {
  const controller = new AbortController();
  const listening: { source: AbortSignal; onAbort: () => void }[] = [];
  let timer: NodeJS.Timeout | undefined;
  const dispose = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    for (const { source, onAbort } of listening.splice(0)) source.removeEventListener('abort', onAbort);
  };
  const abort = (reason: unknown): void => {
    dispose();
    controller.abort(reason);
  };
  for (const source of sources) {
    if (source === undefined) continue;
    if (source.aborted) {
      abort(source.reason);
      return { signal: controller.signal, dispose };
    }
    const onAbort = (): void => abort(source.reason);
    source.addEventListener('abort', onAbort, { once: true });
    listening.push({ source, onAbort });
  }
  if (timeoutMs !== undefined) {
    timer = setTimeout(() => abort(timeoutReason?.() ?? new DeadlineError(`no end within ${timeoutMs} ms`)), timeoutMs);
    // The timer list holds an unref'd timer as strongly as any: the wait stays alive, the process need not.
    timer.unref();
  }
  return { signal: controller.signal, dispose };
}
