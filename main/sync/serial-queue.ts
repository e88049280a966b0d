/**
 * One folder's serial queue: jobs run one at a time in the order they came, so the reconciler sees one
 * batch at a time and a scan never reads entries a batch is rewriting. A job that fails does not stop
 * the ones after it; its caller gets the failure.
 */
export class SerialQueue {
  private tail: Promise<void> = Promise.resolve();

  /** Runs `job` after every job queued before it; settles as the job does. */
  enqueue(job: () => Promise<void>): Promise<void> {
    const run = this.tail.then(job);
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** Settles once every job queued so far has run (whether it failed or not). */
  drained(): Promise<void> {
    return this.tail;
  }
}
