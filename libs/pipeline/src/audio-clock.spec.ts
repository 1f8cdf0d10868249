import { streamingWavHeader } from '@router/vendors-core';
import { AudioClock } from './audio-clock';

describe('AudioClock', () => {
  it('counts 16-bit PCM by its samples', () => {
    const clock = new AudioClock('pcm', 16000);
    clock.push(Buffer.alloc(16000));
    clock.push(Buffer.alloc(16000));
    expect(clock.durationMs()).toBe(1000);
  });

  it('counts only the sample data of a WAV take, its header split across chunks', () => {
    const clock = new AudioClock('wav', 8000);
    const take = Buffer.concat([streamingWavHeader(8000), Buffer.alloc(4000)]);
    clock.push(take.subarray(0, 10));
    clock.push(take.subarray(10, 50));
    clock.push(take.subarray(50));
    expect(clock.durationMs()).toBe(250);
  });

  it('counts G.711 at one byte per sample', () => {
    const clock = new AudioClock('mulaw', 8000);
    clock.push(Buffer.alloc(800));
    expect(clock.durationMs()).toBe(100);
  });

  it('cannot tell the length of compressed audio', () => {
    const clock = new AudioClock('mp3', 24000);
    clock.push(Buffer.from([0xff, 0xfb, 0x90, 0x00]));
    expect(clock.durationMs()).toBeNull();
  });
});
