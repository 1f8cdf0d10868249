import type { RouterError, TakeWarning } from '@router/contracts';
import type { SocketContextRenderer, SocketFailure, SocketFrame } from '@router/vendors-core';
import { vendorACodeForStatus, vendorARequestId, type VendorAErrorCode } from './vendor-a.errors';
import { VENDOR_A_FINAL_EVENT, vendorAAudioMessage, vendorASocketError } from './vendor-a.socket';

/*
 * The frames of vendor_a's mirror sockets (vendor-a.mirror-socket.ts reads the client's messages): a sentence's
 * audio, its warning, a flush's completion event, a failure, in the vendor's words.
 */

/** The router's failure of a sentence in the vendor's words: the vendor's code for its status, else the router's. */
function vendorACode(error: RouterError): VendorAErrorCode {
  if (error.providerStatus !== undefined) return vendorACodeForStatus(error.providerStatus);
  switch (error.code) {
    case 'bad_request':
      return 'invalid_request_error';
    case 'provider_rate_limited':
      return 'rate_limit_exceeded_error';
    case 'provider_key_missing':
    case 'unauthorized':
      return 'invalid_api_key_error';
    default:
      return 'internal_server_error';
  }
}

/**
 * The stream's frames: each sentence's audio as `audio` frames under a request id of its own, the vendor's
 * error for a take it spoke while reporting one after that take's audio, and with completion events one
 * `final` per flush once its audio has gone.
 */
export class VendorARenderer implements SocketContextRenderer {
  /** The request id of the sentence whose audio is playing, from its first chunk to its end. */
  private requestId: string | undefined;

  constructor(private readonly completionEvents: boolean) {}

  audio(chunk: Buffer, at: { first: boolean; contentType?: string }): SocketFrame[] {
    if (at.first || this.requestId === undefined) this.requestId = vendorARequestId();
    if (chunk.length === 0) return [];
    return [JSON.stringify(vendorAAudioMessage(this.requestId, chunk, at.contentType ?? ''))];
  }

  sentenceEnd(end: { warning?: TakeWarning | null }): SocketFrame[] {
    const requestId = this.requestId;
    this.requestId = undefined;
    const { warning } = end;
    if (!warning) return [];
    const code = (warning.code ?? 'invalid_request_error') as VendorAErrorCode;
    return [JSON.stringify(vendorASocketError(code, warning.message, requestId))];
  }

  flushed(): SocketFrame[] {
    return this.completionEvents ? [JSON.stringify(VENDOR_A_FINAL_EVENT)] : [];
  }

  finished(): SocketFrame[] {
    return [];
  }

  /** A failed sentence (or config the router cannot plan) is the vendor's `error`; the socket stays open. */
  failed(failure: RouterError, at?: { sentence: number }): SocketFailure {
    // A sentence's request: the one whose audio had started, else the one the vendor refused.
    const requestId = at ? (this.requestId ?? vendorARequestId()) : undefined;
    this.requestId = undefined;
    return { frames: [JSON.stringify(vendorASocketError(vendorACode(failure), failure.message, requestId))] };
  }
}
