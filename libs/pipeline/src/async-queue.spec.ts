import { AsyncQueue } from './async-queue';

describe('AsyncQueue', () => {
  it('hands items to a reader that waits, and ones pushed earlier in order', async () => {
    const queue = new AsyncQueue<number>();
    const reader = queue[Symbol.asyncIterator]();
    queue.push(1);
    queue.push(2);
    await expect(reader.next()).resolves.toEqual({ done: false, value: 1 });
    await expect(reader.next()).resolves.toEqual({ done: false, value: 2 });
    const waiting = reader.next();
    queue.push(3);
    await expect(waiting).resolves.toEqual({ done: false, value: 3 });
  });

  it('ends a waiting reader, and a reader only after what was pushed before the end', async () => {
    const queue = new AsyncQueue<string>();
    const reader = queue[Symbol.asyncIterator]();
    const waiting = reader.next();
    queue.end();
    await expect(waiting).resolves.toEqual({ done: true, value: undefined });
    const other = new AsyncQueue<string>();
    other.push('a');
    other.end();
    expect([...other.unread]).toEqual(['a']);
    const read: string[] = [];
    for await (const item of other) read.push(item);
    expect(read).toEqual(['a']);
    expect(() => other.push('b')).toThrow('push after end');
  });
});
