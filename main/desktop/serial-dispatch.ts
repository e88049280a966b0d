/**
 * Runs events one after another: an event raised while an earlier one's effects run (a launch that fails
 * at once) waits its turn, so each event sees the state its predecessor left and what they report comes
 * in order.
 */
export class SerialDispatch<E> {
  private readonly queue: E[] = [];
  private running = false;

  constructor(private readonly apply: (event: E) => void) {}

  dispatch(event: E): void {
    this.queue.push(event);
    if (this.running) return;
    this.running = true;
    try {
      for (let next = this.queue.shift(); next !== undefined; next = this.queue.shift()) this.apply(next);
    } finally {
      this.running = false;
    }
  }
}
