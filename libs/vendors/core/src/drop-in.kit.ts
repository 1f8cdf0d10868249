import { type AudioExpectation, type AudioLayout, expectedAudio } from './audio-completeness';
import { audioAnswer, sseAnswer, type SseRules } from './drop-in.answers';
import type { JsonValue } from './catalogue.types';
import { type BodyFieldRule, canonicalRequest, jsonObjectBody, type RequestShape } from './drop-in.keying';
import type { AnswerReading, DropInEndpoint, DropInHead, DropInKeying, DropInRequest } from './drop-in.types';

/*
 * The keying kit every vendor's drop-in wire (`wire/vendor-x.drop-in.ts`) is written with: the one keying of a
 * request that is never cached, an endpoint at an exact path, a field the vendor fills, and the declarative
 * keying of the common shape (a text field in a JSON body, POSTed at listed paths), and what such a request's
 * audio answer is checked against.
 */

/** A request proxied live every time: never looked up, never stored. */
export const LIVE: DropInKeying = Object.freeze({ cacheable: false });

/** An endpoint at exactly this path (a path with no ids and no character a pattern reads). */
export function exactly(method: string, path: string): DropInEndpoint {
  return { method, path: new RegExp(`^${path}$`) };
}

/** A body field the vendor reads as left out when it is null (and has no default of its own to fill). */
export const NULL_IS_ABSENT: BodyFieldRule = Object.freeze({ nullIsAbsent: true });

/** A body field the vendor fills with `value` when it is left out or null. */
export function filled(value: JsonValue): BodyFieldRule {
  return { default: value, nullIsAbsent: true };
}

/** A JSON object body, as the wire reads it. */
export type JsonBody = Readonly<Record<string, JsonValue>>;

/** How a vendor reads the requests of its common shape: POST at `paths`, a JSON object body with a text field. */
export interface TextBodyKeying {
  /** The paths of the endpoints keyed so (exact; their other methods, and every other path, are live). */
  readonly paths: readonly string[];
  /** The body field that holds the text; a body without it as a string is the vendor's to refuse: live. */
  readonly text: string;
  /** How the vendor reads the body (its defaults filled), or that made from the request and its body. */
  readonly shape: RequestShape | ((request: DropInRequest, body: JsonBody) => RequestShape);
  /** Whether such a request is cached at all (no more than its text and body say); all are, unless said. */
  readonly cacheable?: (text: string, body: JsonBody, request: DropInRequest) => boolean;
  /** The body as keyed (fields that change nothing of the answer taken out); as sent, unless said. */
  readonly keyed?: (body: JsonBody) => JsonBody;
}

/**
 * The keying of a wire of the common shape: a POST at one of `paths` whose JSON object body holds its text in
 * `text` is cached whole, keyed as `shape` says the vendor reads it, its characters and its text (evicted with
 * that sentence's entries) those of the text; every other request goes on live. The vendor stores nothing it names (no stored settings enter the key).
 */
export function textBodyKeying(keying: TextBodyKeying): (request: DropInRequest) => DropInKeying {
  const paths: ReadonlySet<string> = new Set(keying.paths);
  return (request) => {
    if (request.method !== 'POST' || !paths.has(request.path)) return LIVE;
    const body = jsonObjectBody(request);
    const text = body?.[keying.text];
    if (!body || typeof text !== 'string') return LIVE;
    if (keying.cacheable && !keying.cacheable(text, body, request)) return LIVE;
    const shape = typeof keying.shape === 'function' ? keying.shape(request, body) : keying.shape;
    return {
      cacheable: true,
      canonical: canonicalRequest(request, shape, keying.keyed ? keying.keyed(body) : body),
      stored: [],
      chars: [...text].length,
      text,
    };
  };
}

/**
 * What the audio answer of a request of the common shape is checked against (`audioAnswer`): the layout its
 * request asks for, as the vendor reads it (`layout`: undefined where it cannot tell), and the least its text
 * plays at the vendor's fastest speed. Undefined (nothing to check against) without a JSON object body holding
 * its text in `text`.
 */
export function textBodyAudio(
  vendor: Parameters<typeof expectedAudio>[0],
  text: string,
  layout: (body: JsonBody, request: DropInRequest) => AudioLayout | undefined,
): (request: DropInRequest) => AudioExpectation | undefined {
  return (request) => {
    const body = jsonObjectBody(request);
    const said = body?.[text];
    if (!body || typeof said !== 'string') return undefined;
    const asked = layout(body, request);
    return asked && expectedAudio(vendor, asked, said);
  };
}

/** How an audio answer of the common shape is read: `audioAnswer`, checked against `textBodyAudio`. */
export function textBodyAnswer(
  vendor: Parameters<typeof expectedAudio>[0],
  text: string,
  layout: (body: JsonBody, request: DropInRequest) => AudioLayout | undefined,
): (request: DropInRequest) => AnswerReading {
  const audio = textBodyAudio(vendor, text, layout);
  return (request) => audioAnswer(audio(request));
}

/**
 * How a 2xx answer of an endpoint that answers either an event stream or audio is read, told by its content type
 * (the request alone may not say which it gets): `text/event-stream` by `events` (the rules of its events for
 * `sseAnswer`, or the reading itself where the wire reads more than its events), anything else as audio checked
 * against `audio` (`audioAnswer`: whole once it is whole audio as long as its text needs).
 */
export function eventsOrAudioAnswer(
  events: SseRules | ((request: DropInRequest) => AnswerReading),
  audio: (request: DropInRequest) => AudioExpectation | undefined,
): (request: DropInRequest, head: DropInHead) => AnswerReading {
  const streamOf = typeof events === 'function' ? events : () => sseAnswer(events);
  return (request, head) =>
    /^text\/event-stream\b/i.test((head.headers['content-type'] ?? '').trim())
      ? streamOf(request)
      : audioAnswer(audio(request));
}
