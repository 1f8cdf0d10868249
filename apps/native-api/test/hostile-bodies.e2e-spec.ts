import { call, createOrgClient, readE2eStack } from '@router/testing';

const stack = readE2eStack();
const gw = stack.gatewayUrl;
/** native-api's JSON body limit (its default, 1 MiB). */
const BODY_LIMIT_BYTES = 1024 * 1024;
const DEEP = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
const DEPTH_RULE = 'nests arrays and objects deeper than the limit of 32 levels';

const refusal = (status: number, message: string) => ({
  status,
  body: { error: { code: 'bad_request', message, retryable: false } },
});

describe('hostile JSON bodies (e2e)', () => {
  const org = createOrgClient(stack, 'hostile-bodies');
  const speech = (rawBody: string, headers: Record<string, string> = {}) =>
    call(gw, 'POST', '/v1/audio/speech', { key: org.key, rawBody, headers });

  it('tells a speech body of null, an array or a number that it must be a JSON object', async () => {
    for (const rawBody of ['null', '[]', '7']) {
      const res = await speech(rawBody);
      expect({ status: res.status, body: res.body }).toEqual(refusal(400, 'the body must be a JSON object'));
    }
  });

  it('refuses a speech body nesting 20,000 arrays deep, naming the field and the limit', async () => {
    const res = await speech(
      `{"model":"vendor_c/c_model_1","input":"Hi.","voice":"v1","voice_settings":${DEEP}}`,
    );
    expect({ status: res.status, body: res.body }).toEqual(refusal(400, `voice_settings ${DEPTH_RULE}`));
  });

  it('refuses a speech body over the limit with 413 naming the limit in bytes', async () => {
    const rawBody = JSON.stringify({ model: 'vendor_c/c_model_1', input: 'x'.repeat(BODY_LIMIT_BYTES) });
    const res = await speech(rawBody);
    expect({ status: res.status, body: res.body }).toEqual(
      refusal(413, `The request body is larger than the limit of ${BODY_LIMIT_BYTES} bytes.`),
    );
  });

  it('holds the admin API to the same rules', async () => {
    const deep = await call(stack.adminUrl, 'POST', '/admin/orgs', { rawBody: `{"name":${DEEP}}` });
    expect({ status: deep.status, body: deep.body }).toEqual(refusal(400, `name ${DEPTH_RULE}`));
    const nothing = await call(stack.adminUrl, 'POST', '/admin/orgs', { rawBody: 'null' });
    expect({ status: nothing.status, body: nothing.body }).toEqual(
      refusal(400, 'the body must be a JSON object'),
    );
  });
});
