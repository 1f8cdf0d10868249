import type { SynthSettings } from '@router/contracts';
import { keyHeader } from './key-placement';
import { testVendor } from './test-vendor.fixture';
import { HttpVendorAdapter, audioPassThrough, type UpstreamAccess } from './upstream-http';
import type { AdapterOptions, SynthesisCall } from './vendor-adapter';
import { listCatalogueVoices } from './voice.types';

/** An adapter whose wire is a spy; nothing here reaches a socket (the calls end before any request). */
class SpyAdapter extends HttpVendorAdapter {
  readonly built: SynthesisCall[] = [];
  readonly read: string[] = [];
  readonly storedSettings = this.storedSettingsReader(
    () => [],
    (reference) => (reference.name.startsWith('known/') ? reference.name.slice('known/'.length) : undefined),
    (id: string, access: UpstreamAccess) => {
      this.read.push(`${id} ${access.apiKey ?? 'no key'}`);
      return Promise.resolve({ id });
    },
  );

  constructor(options: AdapterOptions) {
    super(options, {
      vendor: 'vendor_c',
      keyPlacements: [keyHeader('x-key')],
      refusalText: (body) => body,
      speech: (call) => {
        this.built.push(call);
        return { path: '/speak', body: { text: call.text }, read: audioPassThrough };
      },
    });
  }
}

const settings = { format: 'pcm', sampleRate: 24000, model: 'c_model_1', voice: 'one', options: {} };
const call = (signal: AbortSignal): SynthesisCall => ({
  apiKey: 'k',
  settings: settings as unknown as SynthSettings,
  text: 'Hello.',
  signal,
});

describe('HttpVendorAdapter', () => {
  const adapter = new SpyAdapter({ baseUrl: 'http://127.0.0.1:9/vendor_c' });
  afterAll(() => adapter.close());

  it("builds the vendor's request only once the take is read, and ends with an aborted signal's reason", async () => {
    const abort = new AbortController();
    const reason = new Error('gone');
    abort.abort(reason);
    const take = adapter.synthesize(call(abort.signal));
    expect(adapter.built).toEqual([]);
    await expect(take[Symbol.asyncIterator]().next()).rejects.toBe(reason);
    expect(adapter.built.map((c) => c.text)).toEqual(['Hello.']);
  });

  it("reads a stored thing where its target says, with the caller's key", async () => {
    const access = { apiKey: 'org-key', signal: new AbortController().signal };
    await expect(
      adapter.storedSettings.read({ name: 'known/dict-1', kind: 'first-read' }, access),
    ).resolves.toEqual({
      id: 'dict-1',
    });
    expect(adapter.read).toEqual(['dict-1 org-key']);
  });

  it('refuses a stored name the vendor never makes as internal, reading nothing', async () => {
    const access = { apiKey: 'org-key', signal: new AbortController().signal };
    await expect(
      adapter.storedSettings.read({ name: 'other/x', kind: 'first-read' }, access),
    ).rejects.toMatchObject({
      code: 'internal',
      message: 'vendor_c stores nothing named other/x',
    });
    expect(adapter.read).toEqual(['dict-1 org-key']);
  });
});

describe('listCatalogueVoices', () => {
  it("lists the catalogue's voices of the asked model, without the key being read", async () => {
    const voices = await listCatalogueVoices(testVendor(), {
      apiKey: 'k',
      model: 'c_model_2',
      signal: new AbortController().signal,
    });
    expect(voices.map((v) => v.id)).toEqual(['three']);
    expect(voices[0]).toMatchObject({ provider: 'vendor_c', category: 'builtin', provider_data: null });
  });
});
