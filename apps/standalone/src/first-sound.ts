import { VENDOR_ENTRIES } from '@router/vendors';

/** The printed request's vendor: its voices are in the router's catalogue, so no vendor call lists them. */
const VENDOR = 'vendor_a';
const FILE = 'hello.mp3';

/**
 * One command a new user can paste to hear the router: a speech request for a sentence in mp3, written to a
 * file. The README shows the same command (its test compares them), with `<key>` where the key goes.
 */
export function firstSoundCommand(baseUrl: string, key: string): string {
  const model = VENDOR_ENTRIES[VENDOR].definition.catalogue.models.find((m) => (m.voices ?? []).length > 0);
  const voice = model?.voices?.[0];
  if (!model || voice === undefined) throw new Error(`${VENDOR}'s catalogue has no model with voices`);
  const language = model.languages.includes('en-IN') ? 'en-IN' : model.languages[0];
  const body = {
    model: `${VENDOR}/${model.id}`,
    voice,
    language,
    response_format: 'mp3',
    input: 'Hello from the router.',
  };
  return [
    `curl -sS -o ${FILE} ${baseUrl}/v1/audio/speech`,
    `-H "Authorization: Bearer ${key}"`,
    `-H "Content-Type: application/json"`,
    `-d '${JSON.stringify(body)}'`,
  ].join(' ');
}

/** Whether the command's vendor is simulated, so that the demo org's simulated key answers it. */
export function firstSoundIsSimulated(simulated: readonly string[]): boolean {
  return simulated.includes(VENDOR);
}
