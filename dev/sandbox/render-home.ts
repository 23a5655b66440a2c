import type { Block } from '../slack-standin/index.js';
import { visibleText } from '../slack-standin/index.js';
import { readableSlack, SPEAKER } from './render-terminal.js';

/**
 * A person's App Home as terminal text: headers underlined, dividers as rules, sections and
 * context as their text, Slack's `<!date^…|fallback>` as its fallback and links as "label (url)".
 * Pure: the blocks the bot published in, lines out.
 */
export function renderHomeText(
  blocks: readonly Block[],
  names: Readonly<Record<string, string>> = {},
): string {
  const lines = [`${SPEAKER.sandbox} your App Home (the bot's Home tab):`];
  for (const block of blocks) {
    if (block.type === 'divider') {
      lines.push(`    ${'─'.repeat(40)}`);
      continue;
    }
    const text = visibleText({ blocks: [block] }).replace(/<!date\^[^|>]*\|([^>]*)>/g, '$1');
    const readable = readableSlack(text, names);
    if (block.type === 'header') lines.push('', `    ${readable}`, `    ${'═'.repeat(readable.length)}`);
    else lines.push(...readable.split('\n').map((line) => `    ${line}`));
  }
  return lines.join('\n');
}
