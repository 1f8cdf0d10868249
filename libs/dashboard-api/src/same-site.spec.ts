import { crossSiteProblem } from './same-site';

const json = { 'content-type': 'application/json', 'content-length': '20' };

describe('crossSiteProblem', () => {
  it("lets the dashboard's own JSON changes through, and anything that changes nothing", () => {
    for (const headers of [
      { ...json, origin: 'https://router.example.com', host: 'router.example.com' },
      { ...json, origin: 'https://router.example.com', 'x-forwarded-host': 'router.example.com' },
      { ...json, origin: 'https://router.example.com', 'x-forwarded-host': 'router.example.com:443' },
      { ...json, origin: 'http://127.0.0.1:8080', 'x-forwarded-host': '127.0.0.1:8080', host: 'app:3004' },
      { ...json, 'sec-fetch-site': 'same-origin' },
      // A body-less change (issue a key) and a client that is no browser (no Origin, no Sec-Fetch-Site).
      {},
      json,
    ]) {
      expect(crossSiteProblem('POST', headers)).toBeUndefined();
    }
    const crossSiteRead = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };
    expect(crossSiteProblem('GET', crossSiteRead)).toBeUndefined();
  });

  it('refuses a change whose Sec-Fetch-Site or Origin shows another site, as forbidden', () => {
    for (const headers of [
      { ...json, 'sec-fetch-site': 'cross-site' },
      { ...json, 'sec-fetch-site': 'same-site' },
      { ...json, origin: 'https://evil.example', host: 'router.example.com' },
      { ...json, origin: 'https://router.example.com.evil.example', host: 'router.example.com' },
      {
        ...json,
        origin: 'http://127.0.0.1:9999',
        'x-forwarded-host': '127.0.0.1:8080',
        host: '127.0.0.1:9999',
      },
      { ...json, origin: 'null', host: 'router.example.com' },
    ]) {
      for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
        expect(crossSiteProblem(method, headers)).toMatchObject({ code: 'forbidden', status: 403 });
      }
    }
    expect(crossSiteProblem('POST', { ...json, origin: 'https://evil.example', host: 'x' })?.message).toBe(
      'Refused: the request came from another site (Origin: https://evil.example).',
    );
  });

  it('refuses a change whose body is not JSON with 415, naming the type wanted', () => {
    for (const type of [
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'text/plain',
      'application/jsonp',
    ]) {
      const problem = crossSiteProblem('POST', { 'content-type': type, 'content-length': '10' });
      expect(problem).toMatchObject({ code: 'bad_request', status: 415 });
      expect(problem?.message).toContain('Content-Type: application/json');
    }
    // A body with no type at all, and a type on an empty body, are refused alike.
    expect(crossSiteProblem('PUT', { 'content-length': '10' })).toMatchObject({ status: 415 });
    expect(crossSiteProblem('DELETE', { 'content-type': 'text/plain' })).toMatchObject({ status: 415 });
    expect(crossSiteProblem('POST', { 'content-type': 'Application/JSON; charset=utf-8' })).toBeUndefined();
  });
});
