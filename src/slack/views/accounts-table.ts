/**
 * The `/agent accounts` table: fixed-width rows in code blocks, each block small enough for one
 * section. Columns are measured on the text a reader sees (graphemes, before `&`, `<` and `>` are
 * escaped for mrkdwn), so a name like "R&D <eu>" keeps the columns aligned.
 */
import type { SubAccount } from '../../agent-api/index.js';
import { flatText, gb, reserved, SECTION_MAX_CHARS } from './mrkdwn-reply.js';

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const width = (text: string) => [...graphemes.segment(text)].length;
const pad = (text: string, to: number) => text + ' '.repeat(Math.max(0, to - width(text)));

/** Column text: no backticks (they would end the code block). */
const cell = (text: string, max: number) => flatText(text, max).replace(/`/g, "'");

function flagsOf(account: SubAccount): string {
  const flags = [
    account.searchable && 'searchable',
    account.accessible && 'accessible',
    account.docSizeSetting && 'doc-size',
    account.isFlexible === true && 'flexible',
    account.utilizationSettings.utilizationEnabled && 'utilization',
  ].filter((flag): flag is string => typeof flag === 'string');
  return flags.length > 0 ? flags.join(', ') : '—';
}

function row(account: SubAccount): string[] {
  const label =
    account.isOwner === true ? `${cell(account.accountName, 40)} (main)` : cell(account.accountName, 40);
  return [
    label,
    String(account.accountId),
    account.maxDailyGB === null ? 'uncapped' : gb(account.maxDailyGB),
    `${account.retentionDays} d`,
    flagsOf(account),
  ];
}

/** The main account first (as the service lists it), then the rest in the listing's order. */
export function accountsTable(accounts: readonly SubAccount[]): string[] {
  const header = ['Name', 'ID', 'Max GB/day', 'Retention', 'Flags'];
  const rows = accounts.map(row);
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((r) => width(r[i] ?? ''))));
  const line = (cells: string[]) =>
    reserved(
      cells
        .map((value, i) => pad(value, widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    );
  const chunks: string[][] = [[line(header)]];
  for (const cells of rows) {
    const current = chunks[chunks.length - 1] as string[];
    const text = line(cells);
    if (current.join('\n').length + text.length + 8 > SECTION_MAX_CHARS) chunks.push([text]);
    else current.push(text);
  }
  return chunks.map((chunk) => `\`\`\`\n${chunk.join('\n')}\n\`\`\``);
}
