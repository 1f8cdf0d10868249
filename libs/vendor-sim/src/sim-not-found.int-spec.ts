import { mirrorAccess, VENDOR_IDS } from '@router/vendors';
import { useTestSim } from './test/sim-harness';

describe("every simulated vendor's 404 is its vendor folder's", () => {
  const t = useTestSim();

  it.each(VENDOR_IDS)('%s answers a path it does not have as its access says', async (vendor) => {
    const res = await fetch(`${t.base(vendor)}/no/such/path`, { method: 'POST', body: '{}' });
    const expected = mirrorAccess(vendor).notFound({ method: 'POST', path: '/no/such/path' });
    const body = await res.text();
    expect(res.status).toBe(expected.status);
    expect(res.headers.get('content-type')).toBe(expected.headers['content-type']);
    // vendor_g's 404 carries a fresh request id; every other field is compared as it is.
    const normalise = (text: string): unknown =>
      expected.headers['content-type'] === 'application/json'
        ? JSON.parse(text, (name, value: unknown) =>
            name === 'request_id' && value !== null ? '<id>' : value,
          )
        : text;
    expect(normalise(body)).toEqual(normalise(expected.body));
  });
});
