/** A new DM conversation's title (https://docs.slack.dev/reference/methods/assistant.threads.setTitle). */
import { truncate } from './text-cut.js';

/** Long enough to recognise a conversation in the history list, short enough to fit its row. */
export const THREAD_TITLE_MAX_CHARS = 60;

/** The first line of the question, on one line, shortened at a word (with "…"). */
export function threadTitleFrom(question: string): string | undefined {
  const firstLine = question
    .split('\n')
    .map((line) => line.trim())
    .find((line) => line !== '');
  if (!firstLine) return undefined;
  return truncate(firstLine.replace(/\s+/g, ' '), THREAD_TITLE_MAX_CHARS);
}
