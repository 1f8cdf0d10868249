import { matchRoute } from './http-route';

const routes = [
  { method: 'GET', path: '/v1/voices/:voice_id' },
  { method: 'GET', path: '/v1/voices/settings/default' },
  { method: 'GET', path: '/v1/voices/:voice_id/settings' },
  { method: 'POST', path: '/v1/text-to-speech/:voice_id/stream' },
];

describe('matchRoute', () => {
  it('binds parameters and prefers literal segments', () => {
    expect(matchRoute(routes, 'GET', '/v1/voices/abc')).toMatchObject({
      kind: 'found',
      params: { voice_id: 'abc' },
    });
    expect(matchRoute(routes, 'GET', '/v1/voices/settings/default')).toMatchObject({
      kind: 'found',
      route: { path: '/v1/voices/settings/default' },
    });
    expect(matchRoute(routes, 'GET', '/v1/voices/a%20b/settings')).toMatchObject({
      params: { voice_id: 'a b' },
    });
  });

  it('tells a wrong method from an unknown path', () => {
    expect(matchRoute(routes, 'GET', '/v1/text-to-speech/x/stream').kind).toBe('wrong-method');
    expect(matchRoute(routes, 'GET', '/v1/nothing').kind).toBe('none');
  });
});
