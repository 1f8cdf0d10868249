/**
 * Items that arrive over time (a streamed reply's pieces), read once in order by one async iteration. `end`
 * lets the reader finish once it has read what was pushed.
 */
export class AsyncQueue<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private ended = false;
  private waiting: ((result: IteratorResult<T, undefined>) => void) | undefined;

  push(item: T): void {
    if (this.ended) throw new Error('push after end');
    if (this.waiting) {
      const wake = this.waiting;
      this.waiting = undefined;
      wake({ done: false, value: item });
    } else this.items.push(item);
  }

  end(): void {
    this.ended = true;
    if (this.items.length === 0) this.wakeDone();
  }

  /** Items pushed and not read yet. */
  get unread(): readonly T[] {
    return this.items;
  }

  [Symbol.asyncIterator](): AsyncIterator<T, undefined> {
    return {
      next: () => {
        if (this.items.length > 0) return Promise.resolve({ done: false, value: this.items.shift() as T });
        if (this.ended) return Promise.resolve({ done: true, value: undefined });
        return new Promise((resolve) => (this.waiting = resolve));
      },
      return: () => {
        this.end();
        return Promise.resolve({ done: true, value: undefined });
      },
    };
  }

  private wakeDone(): void {
    const wake = this.waiting;
    this.waiting = undefined;
    wake?.({ done: true, value: undefined });
  }
}
