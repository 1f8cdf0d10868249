import { checkPayload, jsonCodec, type RequestDef } from '@router/contracts';
import { BusRemoteError, toBusErrorJSON, type BusErrorJSON } from './bus.error';
import type { RequestHandler } from './bus.interface';

/** A reply on the wire: JSON bytes, and whether they hold the value or a BusErrorJSON. */
export interface EncodedReply {
  data: Uint8Array;
  failed: boolean;
}

export function encodeError(err: unknown): Uint8Array {
  const json: BusErrorJSON = toBusErrorJSON(err);
  try {
    return jsonCodec.encode(json);
  } catch {
    // Details that JSON cannot carry (cycles, BigInt) are dropped rather than losing the error.
    return jsonCodec.encode({ code: json.code, message: json.message });
  }
}

/** The server's end of request/reply: decode, check, handle, check the reply, encode. Never throws. */
export async function answerRequest<Req, Res>(
  def: RequestDef<Req, Res>,
  handler: RequestHandler<Req, Res>,
  data: Uint8Array,
): Promise<EncodedReply> {
  try {
    const request = checkPayload(
      def.subject,
      'request',
      def.request,
      jsonCodec.decode(data, def.subject, 'request'),
    );
    const reply = checkPayload(def.subject, 'reply', def.reply, await handler(request));
    return { data: jsonCodec.encode(reply), failed: false };
  } catch (err) {
    return { data: encodeError(err), failed: true };
  }
}

/** The requester's end: a failure becomes a thrown BusRemoteError, a value is checked against the contract. */
export function readReply<Req, Res>(def: RequestDef<Req, Res>, reply: EncodedReply): Res {
  if (reply.failed) throw BusRemoteError.fromJSON(jsonCodec.decode(reply.data, def.subject, 'reply'));
  return checkPayload(def.subject, 'reply', def.reply, jsonCodec.decode(reply.data, def.subject, 'reply'));
}

/** The request as it leaves the requester: checked, then encoded. */
export function encodeRequest<Req, Res>(def: RequestDef<Req, Res>, payload: Req): Uint8Array {
  return jsonCodec.encode(checkPayload(def.subject, 'request', def.request, payload));
}
