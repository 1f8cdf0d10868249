import { readyWithin } from './infrastructure';

/** A store whose `ready()` fails `failures` times, then succeeds. */
function blinking(failures: number): { ready: jest.Mock<Promise<void>, []> } {
  let left = failures;
  return {
    ready: jest.fn(() => (left-- > 0 ? Promise.reject(new Error('S3 answered 500')) : Promise.resolve())),
  };
}

describe('readyWithin', () => {
  it('waits out a store that fails a few times, then answers', async () => {
    const store = blinking(3);
    await readyWithin(store, 1_000, 1);
    expect(store.ready).toHaveBeenCalledTimes(4);
  });

  it("gives up once the bound has passed, with the store's last error", async () => {
    const store = blinking(Number.POSITIVE_INFINITY);
    await expect(readyWithin(store, 50, 10)).rejects.toThrow('S3 answered 500');
    expect(store.ready.mock.calls.length).toBeGreaterThan(1);
    expect(store.ready.mock.calls.length).toBeLessThan(10);
  });
});
