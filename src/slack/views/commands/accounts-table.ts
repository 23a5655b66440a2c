/** The `/agent accounts` table, measured in graphemes before escaping ("R&D <eu>" stays aligned). */
import type { SubAccount } from '../../../agent-api/index.js';
import { flatText, gb, reserved, SECTION_MAX_CHARS } from '../mrkdwn-reply.js';

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const width = (text: string) => [...graphemes.segment(text)].length;
const pad = (text: string, to: number) => text + ' '.repeat(Math.max(0, to - width(text)));

/** Column text: no backticks (they would end the code block). */
const cell = (text: string, max: number) => flatText(text, max).replace(/`/g, "'");

/** What the listing did not say, in a cell. */
export const MISSING_CELL = '?';

function flagsOf(account: SubAccount): string {
  const flags = [
    account.searchable === true && 'searchable',
    account.accessible === true && 'accessible',
    account.docSizeSetting === true && 'doc-size',
    account.isFlexible === true && 'flexible',
    account.utilizationSettings?.utilizationEnabled === true && 'utilization',
  ].filter((flag): flag is string => typeof flag === 'string');
  return flags.length > 0 ? flags.join(', ') : '—';
}

/** `null`: "no daily cap" unless flexible (DESIGN "Checked against the vendor's OpenAPI file"). */
function capacityCell(account: SubAccount): string {
  if (account.maxDailyGB === undefined) return MISSING_CELL;
  if (account.maxDailyGB !== null) return gb(account.maxDailyGB);
  return account.isFlexible === true ? 'uncapped' : 'no daily cap';
}

function row(account: SubAccount): string[] {
  const name = account.accountName == null ? MISSING_CELL : cell(account.accountName, 40);
  return [
    account.isOwner === true ? `${name} (main)` : name,
    account.accountId == null ? MISSING_CELL : String(account.accountId),
    capacityCell(account),
    account.retentionDays == null ? MISSING_CELL : `${account.retentionDays} d`,
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
