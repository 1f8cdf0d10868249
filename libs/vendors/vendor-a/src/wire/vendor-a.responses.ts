/*
 * vendor_a's one-shot answer (`POST /text-to-speech`), both directions: `{request_id, audios: [base64, ...]}`,
 * built by a server and read back by the adapter.
 */

export function vendorAOneShotBody(requestId: string, audio: Buffer): string {
  return JSON.stringify({ request_id: requestId, audios: [audio.toString('base64')] });
}

/** The audio of a one-shot answer, the `audios` joined; undefined when the body carries none. */
export function readVendorAOneShotAudio(body: string): Buffer | undefined {
  let audios: unknown;
  try {
    audios = (JSON.parse(body) as { audios?: unknown }).audios;
  } catch {
    return undefined;
  }
  if (!Array.isArray(audios) || audios.length === 0 || !audios.every((a) => typeof a === 'string')) {
    return undefined;
  }
  return Buffer.concat(audios.map((a: string) => Buffer.from(a, 'base64')));
}
