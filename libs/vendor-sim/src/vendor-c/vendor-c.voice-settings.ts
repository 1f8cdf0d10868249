import type { SchemaIssue } from './vendor-c.errors';
import { checkBoolean, checkNumber } from './vendor-c.schema';

/** Checks a voice-settings object (`voice_settings` in a body, or a settings edit). */
export function settingsIssues(value: Record<string, unknown>, loc: readonly string[]): SchemaIssue[] {
  return [
    ...checkNumber(value['stability'], [...loc, 'stability'], 0, 1),
    ...checkNumber(value['similarity_boost'], [...loc, 'similarity_boost'], 0, 1),
    ...checkNumber(value['style'], [...loc, 'style'], 0, 1),
    ...checkNumber(value['speed'], [...loc, 'speed'], 0.7, 1.2),
    ...checkBoolean(value['use_speaker_boost'], [...loc, 'use_speaker_boost']),
  ];
}
