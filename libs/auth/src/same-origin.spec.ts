import { originIsRequestHost } from './same-origin';

describe('originIsRequestHost', () => {
  it('takes an Origin naming the host the request was sent to, as the gateway or a proxy says it', () => {
    for (const [origin, headers] of [
      ['https://router.example.com', { host: 'router.example.com' }],
      ['https://router.example.com', { 'x-forwarded-host': 'router.example.com', host: 'app:3001' }],
      ['https://router.example.com', { 'x-forwarded-host': 'router.example.com:443' }],
      ['http://127.0.0.1:8080', { 'x-forwarded-host': '127.0.0.1:8080', host: 'app:3004' }],
      // A chain of proxies: the first named the host the browser asked for.
      ['https://router.example.com', { 'x-forwarded-host': 'router.example.com, inner:8080' }],
    ] as const) {
      expect({ origin, headers, same: originIsRequestHost(origin, headers) }).toEqual({
        origin,
        headers,
        same: true,
      });
    }
  });

  it('refuses another host, another port, a look-alike, null, none, or no host to compare with', () => {
    for (const [origin, headers] of [
      ['https://evil.example', { host: 'router.example.com' }],
      ['https://router.example.com.evil.example', { host: 'router.example.com' }],
      ['http://127.0.0.1:9999', { 'x-forwarded-host': '127.0.0.1:8080', host: '127.0.0.1:9999' }],
      ['http://router.example.com', { host: 'router.example.com:8080' }],
      ['null', { host: 'router.example.com' }],
      ['not a url', { host: 'router.example.com' }],
      [undefined, { host: 'router.example.com' }],
      [['https://router.example.com', 'https://router.example.com'], { host: 'router.example.com' }],
      ['https://router.example.com', {}],
    ] as const) {
      expect({ origin, same: originIsRequestHost(origin as string | string[] | undefined, headers) }).toEqual(
        {
          origin,
          same: false,
        },
      );
    }
  });
});
