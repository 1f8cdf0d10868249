import { voice } from '@livekit/agents';
import type { AudioFrame } from '@livekit/rtc-node';

/** One segment the agent spoke: its audio as 16-bit PCM. */
export interface PlayedSegment {
  pcm: Buffer;
  sampleRate: number;
}

/**
 * The agent's loudspeaker, standing in for a LiveKit room: it "plays" each frame at `speed` times real time
 * (so an interruption lands while a reply is still playing, as it would in a call) and keeps what it played,
 * segment by segment, for the example to write out as WAV files.
 */
export class RecordingAudioOutput extends voice.AudioOutput {
  readonly segments: PlayedSegment[] = [];
  private current: Buffer[] = [];
  private rate = 0;
  private playing = false;
  private readonly frameWaiters: Array<() => void> = [];

  constructor(
    sampleRate: number,
    private readonly speed: number,
  ) {
    super(sampleRate, undefined, { pause: false });
  }

  override async captureFrame(frame: AudioFrame): Promise<void> {
    await super.captureFrame(frame);
    if (!this.playing) {
      this.playing = true;
      this.onPlaybackStarted(Date.now());
    }
    this.rate = frame.sampleRate;
    this.current.push(Buffer.from(frame.data.buffer, frame.data.byteOffset, frame.data.byteLength));
    for (const waiter of this.frameWaiters.splice(0)) waiter();
    const ms = (frame.samplesPerChannel / frame.sampleRate) * 1000;
    await new Promise((resolve) => setTimeout(resolve, ms / this.speed));
  }

  /** Resolves once the output has played a frame of its current segment. */
  firstFrame(): Promise<void> {
    if (this.current.length > 0) return Promise.resolve();
    return new Promise((resolve) => this.frameWaiters.push(resolve));
  }

  override flush(): void {
    super.flush();
    this.finish(false);
  }

  clearBuffer(): void {
    this.finish(true);
  }

  private finish(interrupted: boolean): void {
    if (!this.playing) return;
    this.playing = false;
    const pcm = Buffer.concat(this.current.splice(0));
    this.segments.push({ pcm, sampleRate: this.rate });
    this.onPlaybackFinished({ playbackPosition: pcm.length / 2 / this.rate, interrupted });
  }
}

/** A WAV file of 16-bit mono PCM. */
export function wavFile(pcm: Buffer, sampleRate: number): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + pcm.length, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(pcm.length, 40);
  return Buffer.concat([header, pcm]);
}
