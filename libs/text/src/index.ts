export { createIncrementalSplitter, splitText } from './piece.splitter';
export { isSpeakable } from './speakable.util';
export type { IncrementalSplitter, Splitter, UnspeakableRule } from './text.types';
export { collapseWhitespace } from './whitespace.util';
