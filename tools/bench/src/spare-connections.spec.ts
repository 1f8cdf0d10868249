import { onSpare, type SpareConnection } from './spare-connections';

class FakeConnection implements SpareConnection {
  usable = true;
  closes = 0;
  constructor(readonly name: string) {}
  close(): void {
    this.usable = false;
    this.closes += 1;
  }
}

const opening = (name: string) => {
  const opened: FakeConnection[] = [];
  return {
    opened,
    open: () => {
      const connection = new FakeConnection(`${name}-${opened.length + 1}`);
      opened.push(connection);
      return Promise.resolve(connection);
    },
  };
};

describe('onSpare', () => {
  it('passes over spares the server closed while they waited, closing them, for the newest usable one', async () => {
    const older = new FakeConnection('older');
    const closedWhileIdle = new FakeConnection('closed while idle');
    closedWhileIdle.usable = false;
    const spares = [older, closedWhileIdle];
    const { open, opened } = opening('new');
    const used: string[] = [];

    const failure = await onSpare(spares, open, (client) => {
      used.push(client.name);
      return Promise.resolve(undefined);
    });

    expect(failure).toBeUndefined();
    expect(used).toEqual(['older']);
    expect(closedWhileIdle.closes).toBe(1);
    expect(opened).toEqual([]);
    expect(spares).toEqual([older]);
  });

  it('opens a connection when no spare is usable, and keeps it for the next request', async () => {
    const dead = [new FakeConnection('a'), new FakeConnection('b')];
    for (const connection of dead) connection.usable = false;
    const spares = [...dead];
    const { open, opened } = opening('new');

    const failure = await onSpare(spares, open, () => Promise.resolve(undefined));

    expect(failure).toBeUndefined();
    expect(opened.map((c) => c.name)).toEqual(['new-1']);
    expect(dead.map((c) => c.closes)).toEqual([1, 1]);
    expect(spares).toEqual(opened);
  });

  it("returns a failed request's reason and closes a connection it left unusable", async () => {
    const spares: FakeConnection[] = [];
    const { open, opened } = opening('new');

    const failure = await onSpare(spares, open, (client) => {
      client.usable = false;
      return Promise.reject(new Error('sentence timed out'));
    });

    expect(failure).toBe('sentence timed out');
    expect(opened[0]?.closes).toBe(1);
    expect(spares).toEqual([]);
  });

  it('returns why a connection could not be opened', async () => {
    const failure = await onSpare(
      [],
      () => Promise.reject(new Error('handshake 429')),
      () => Promise.resolve(undefined),
    );
    expect(failure).toBe('handshake 429');
  });
});
