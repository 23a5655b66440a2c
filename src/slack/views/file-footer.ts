import type { FileReport, FileSkipReason } from '../../conversation/context/file-context.js';
import { escapeSlackText } from './mrkdwn.js';
import { neutraliseSlackControls } from './neutralise.js';

const NAMES_MAX = 8;

const REASONS: Record<FileSkipReason, string> = {
  image: 'image',
  binary: 'not a text file',
  'too-big': 'too big',
  'not-readable': 'not readable by the bot',
  'download-failed': 'download failed',
  'no-room': `no room left within FILE_CONTEXT_MAX_CHARS`,
  off: 'file context is off',
};

/** A file name as it shows in mrkdwn: escaped, no control sequences, no backticks, kept short. */
function shown(name: string): string {
  const clean = neutraliseSlackControls(name)
    .replace(/[`\p{Cc}]/gu, '')
    .slice(0, 80);
  return `\`${escapeSlackText(clean) || 'unnamed'}\``;
}

function listed(items: string[]): string {
  const more = items.length > NAMES_MAX ? [`and ${items.length - NAMES_MAX} more`] : [];
  return [...items.slice(0, NAMES_MAX), ...more].join(', ');
}

/** Footer lines: the files the agent read, and those it did not and why (DESIGN "Files are context"). */
export function describeFiles(report: FileReport | undefined): string[] {
  if (!report) return [];
  const lines: string[] = [];
  if (report.sent.length > 0) lines.push(`:paperclip: Sent to the agent: ${listed(report.sent.map(shown))}`);
  if (report.notSent.length > 0) {
    const items = report.notSent.map((file) => `${shown(file.name)} (${REASONS[file.reason]})`);
    lines.push(`:paperclip: Not sent: ${listed(items)}`);
  }
  return lines;
}
