/**
 * An ordered queue read by one consumer at a time: the socket pushes, an iterator pulls and waits when it
 * is empty. It tracks the bytes it holds so the session can stop reading the socket when nobody drains it.
 */
export class EventQueue<T> {
  private items: T[] = [];
  private head = 0;
  private waiter: ((result: IteratorResult<T>) => void) | null = null;
  private failWaiter: ((error: Error) => void) | null = null;
  private ending: { error: Error | undefined } | null = null;
  private held = 0;

  constructor(
    private readonly weigh: (item: T) => number,
    /** Called after an item was taken, with the bytes still held. */
    private readonly onTake: (heldBytes: number) => void,
  ) {}

  get heldBytes(): number {
    return this.held;
  }

  get ended(): boolean {
    return this.ending !== null;
  }

  push(item: T): void {
    if (this.ending) return;
    if (this.waiter) {
      const resolve = this.waiter;
      this.waiter = this.failWaiter = null;
      resolve({ value: item, done: false });
      return;
    }
    this.items.push(item);
    this.held += this.weigh(item);
  }

  /** No more items: a reader gets the ones held, then the end (or `error`, if given). */
  end(error?: Error): void {
    if (this.ending) return;
    this.ending = { error };
    if (this.waiter) {
      const [resolve, fail] = [this.waiter, this.failWaiter];
      this.waiter = this.failWaiter = null;
      if (error === undefined) resolve({ value: undefined, done: true });
      else fail?.(error);
    }
  }

  next(): Promise<IteratorResult<T>> {
    if (this.head < this.items.length) {
      const item = this.items[this.head];
      this.head += 1;
      if (this.head > 64 && this.head * 2 > this.items.length) {
        this.items = this.items.slice(this.head);
        this.head = 0;
      }
      this.held -= this.weigh(item);
      this.onTake(this.held);
      return Promise.resolve({ value: item, done: false });
    }
    if (this.ending) {
      return this.ending.error === undefined
        ? Promise.resolve({ value: undefined, done: true })
        : Promise.reject(this.ending.error);
    }
    if (this.waiter) return Promise.reject(new Error('The stream is already being read'));
    return new Promise((resolve, reject) => {
      this.waiter = resolve;
      this.failWaiter = reject;
    });
  }
}
