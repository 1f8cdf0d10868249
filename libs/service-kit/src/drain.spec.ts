import { Health } from '@router/observability';
import { Drain, within } from './drain';

describe('Drain', () => {
  it('fails readiness once it begins, naming the check `draining`', async () => {
    const health = new Health('drain-spec');
    const drain = new Drain(health);
    expect(await health.readiness()).toEqual({ ready: true, checks: { draining: 'ok' } });
    drain.begin();
    expect(drain.draining).toBe(true);
    expect(await health.readiness()).toEqual({ ready: false, checks: { draining: 'failing' } });
  });

  it('is idle only once every piece of work it counted is over; ending one twice counts once', async () => {
    const drain = new Drain();
    const first = drain.enter();
    const second = drain.enter();
    let idle = false;
    void drain.idle().then(() => (idle = true));
    first();
    first();
    await Promise.resolve();
    expect(idle).toBe(false);
    second();
    await Promise.resolve();
    expect(idle).toBe(true);
  });

  it('within() gives up on work that outlasts its deadline, and never rejects', async () => {
    let settled = false;
    await within(new Promise(() => undefined), 10).then(() => (settled = true));
    expect(settled).toBe(true);
    await expect(within(Promise.reject(new Error('failed')), 1000)).resolves.toBeUndefined();
  });
});
