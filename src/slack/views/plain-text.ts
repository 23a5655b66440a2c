/** The readable fallback of Markdown (https://api.slack.com/methods/chat.postMessage#arg_text). */
import { escapedText } from './mrkdwn.js';
import { neutraliseSlackControls } from './neutralise.js';

/** Slack's guidance: keep `text` under 4,000 characters; we aim lower, a notification is short. */
export const FALLBACK_MAX_CHARS = 3_000;

const STRIP_RULES: Array<[RegExp, string]> = [
  [/^[ \t]*(`{3,}|~{3,}).*$\n?/gm, ''], // fence lines (the code itself stays)
  [/^[ \t]{0,3}#{1,6}[ \t]+/gm, ''], // heading marks
  [/^[ \t]{0,3}>[ \t]?/gm, ''], // block quotes
  [/^([ \t]*)[-*+][ \t]+/gm, '$1• '], // bullets
  [/!\[([^\]\n]*)\]\([^)\n]*\)/g, '$1'], // images: alt text
  [/\[([^\]\n]+)\]\([^)\n]*\)/g, '$1'], // links: label
  [/\\([[\]])/g, '$1'], // escaped brackets (a neutralised reference definition)
  [/(\*\*|__|~~)(?=\S)([^\n]*?\S)\1/g, '$2'], // bold, strikethrough
  [/`+([^`\n]+?)`+/g, '$1'], // inline code
  [/\n{3,}/g, '\n\n'],
];

/** Markdown to readable plain text, neutralised again (stripping can join a sequence back up). */
export function markdownToPlainText(markdown: string): string {
  const stripped = STRIP_RULES.reduce(
    (text, [pattern, replacement]) => text.replace(pattern, replacement),
    markdown,
  );
  return neutraliseSlackControls(stripped.trim());
}

/** A message's fallback `text`, escaped (Slack parses it as mrkdwn), then `marker` ("(part 2/5)"). */
export function fallbackText(markdown: string, marker?: string, maxChars = FALLBACK_MAX_CHARS): string {
  const suffix = marker ? ` ${marker}` : '';
  // Markup alone (an empty code block) strips to nothing; notifications still need words.
  const plain = markdownToPlainText(markdown) || 'Agent answer';
  return `${escapedText(plain, maxChars - suffix.length)}${suffix}`.trim();
}
