/**
 * `/agent` replies as Slack messages: pure rendering of a CommandOutcome into mrkdwn sections
 * (https://docs.slack.dev/reference/block-kit/blocks/section-block). Every reply goes back
 * ephemerally through response_url; the listener adds `response_type`.
 */
import type { CapacityMoveError, SubAccount } from '../../agent-api/index.js';
import type { CommandOutcome } from '../../commands/command-outcome.js';
import { ADMIN_AUDIENCE, ADMINS_ARE, HELP_ENTRIES } from '../../commands/help-text.js';
import type { ParseResult } from '../../commands/parse-command.js';
import { describeError } from './describe-error.js';
import { neutraliseSlackControls } from './neutralise.js';
import { truncate } from './text-cut.js';

interface SectionBlock {
  type: 'section';
  text: { type: 'mrkdwn'; text: string };
}

/** A reply: `text` is the notification and screen-reader text, `blocks` what people see. */
export interface CommandReply {
  text: string;
  blocks: SectionBlock[];
}

/** Section text limit is 3,000; a margin keeps the code fences added around table chunks inside it. */
const SECTION_MAX_CHARS = 2_900;
/** Slack allows 50 blocks per message; the fallback text stays well under 4,000. */
const MAX_BLOCKS = 50;
const TEXT_MAX_CHARS = 3_000;

/** Text from the service or a person inside our mrkdwn: on one line, no pings, reserved characters escaped. */
export function escapeMrkdwn(text: string, max = 200): string {
  const flat = neutraliseSlackControls(text).replace(/\s+/g, ' ').trim();
  return truncate(flat, max).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Our own text with `<`, `>` and `&` (the usage lines' placeholders): only the reserved characters escaped. */
const reserved = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const section = (text: string): SectionBlock => ({ type: 'section', text: { type: 'mrkdwn', text } });

/** Paragraphs → sections; each paragraph is already short except the accounts table, split upstream. */
function reply(...paragraphs: string[]): CommandReply {
  const blocks = paragraphs
    .filter((p) => p !== '')
    .slice(0, MAX_BLOCKS)
    .map(section);
  const text = truncate(paragraphs.filter((p) => p !== '').join('\n\n'), TEXT_MAX_CHARS);
  return { text, blocks };
}

/** The help: every subcommand with a one-line description and an example. */
export function renderHelp(unknown?: string): CommandReply {
  const intro = unknown
    ? `\`${escapeMrkdwn(unknown, 60)}\` is not an \`/agent\` command. Here is what it can do:`
    : '*`/agent` commands*';
  const lines = HELP_ENTRIES.map(
    (entry) =>
      `• \`${reserved(entry.usage)}\`${entry.adminOnly ? ' _(admins)_' : ''} — ${reserved(entry.description)}\n      e.g. \`${reserved(entry.example)}\``,
  );
  return reply(intro, lines.join('\n'), `_Admins: ${ADMINS_ARE}._`);
}

/** What the HTTP ack shows at once for commands that take a while; undefined → an empty ack. */
export function renderAcknowledgement(parsed: ParseResult): string | undefined {
  if (!parsed.ok) return undefined;
  const slow = parsed.command.kind === 'export' || parsed.command.kind === 'capacity-move';
  return slow ? 'Working on it…' : undefined;
}

const gb = (value: number) => `${Number(value.toFixed(6))} GB`;

/** Column text for the accounts table: no backticks (they would end the code block). */
const cell = (text: string, max: number) => escapeMrkdwn(text, max).replace(/`/g, "'");

function flagsOf(account: SubAccount): string {
  const extra = account as SubAccount & { isFlexible?: unknown };
  const flags = [
    account.searchable && 'searchable',
    account.accessible && 'accessible',
    account.docSizeSetting && 'doc-size',
    extra.isFlexible === true && 'flexible',
    account.utilizationSettings.utilizationEnabled && 'utilization',
  ].filter((flag): flag is string => typeof flag === 'string');
  return flags.length > 0 ? flags.join(', ') : '—';
}

/** Fixed-width rows, chunked into code blocks that each fit one section. */
function accountsTable(accounts: readonly SubAccount[]): string[] {
  const header = ['Name', 'ID', 'Max GB/day', 'Retention', 'Flags'];
  const rows = accounts.map((a) => [
    cell(a.accountName, 40),
    String(a.accountId),
    gb(a.maxDailyGB),
    `${a.retentionDays} d`,
    flagsOf(a),
  ]);
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => (row[i] ?? '').length)));
  const line = (row: string[]) =>
    row
      .map((value, i) => value.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  const chunks: string[][] = [[line(header)]];
  for (const row of rows) {
    const current = chunks[chunks.length - 1] as string[];
    const text = line(row);
    if (current.join('\n').length + text.length + 8 > SECTION_MAX_CHARS) chunks.push([text]);
    else current.push(text);
  }
  return chunks.map((chunk) => `\`\`\`\n${chunk.join('\n')}\n\`\`\``);
}

function renderAccounts(accounts: readonly SubAccount[]): CommandReply {
  if (accounts.length === 0) return reply('There are no sub accounts.');
  const warnings = accounts
    .filter((a) => a.maxDailyGB <= 0)
    .map(
      (a) =>
        `:warning: *${escapeMrkdwn(a.accountName, 80)}* (${a.accountId}) is at 0 GB per day: it accepts no logs. ` +
        `Give it capacity with \`${reserved(`/agent capacity move <GB> from <account> to ${a.accountId}`)}\`.`,
    );
  return reply(`*Sub accounts* (${accounts.length})`, ...accountsTable(accounts), ...warnings);
}

function renderCreated(outcome: Extract<CommandOutcome, { kind: 'account-created' }>): CommandReply {
  const name = escapeMrkdwn(outcome.accountName, 80);
  const created = `Created sub account *${name}* (id ${outcome.accountId}).`;
  // Only ever rendered into the requester's ephemeral reply: it is the new account's secret.
  const token = `Its API token, shown only to you — store it somewhere safe: \`${outcome.accountToken}\``;
  const note =
    outcome.maxDailyGB <= 0
      ? `:warning: Its max daily GB is 0${outcome.maxDailyGBDefaulted ? ' (the default)' : ''}, so it accepts no logs. ` +
        `Give it at least 1 GB: \`${reserved(`/agent capacity move 1 from <account> to ${outcome.accountId}`)}\`.`
      : '';
  return reply(created, token, note);
}

const NOTHING_CHANGED = 'Nothing was changed.';

function renderCapacityFailure(failure: CapacityMoveError, referenceId: string | undefined): CommandReply {
  const said = escapeMrkdwn(failure.message, 400);
  switch (failure.reason) {
    case 'ambiguous_account': {
      const names = (failure.candidates ?? []).map(
        (c) => `${escapeMrkdwn(c.accountName, 80)} (${c.accountId})`,
      );
      return reply(
        `“${escapeMrkdwn(failure.reference ?? '', 80)}” names more than one sub account: ${names.join(', ')}. Use the id instead. ${NOTHING_CHANGED}`,
      );
    }
    case 'unknown_account':
      return reply(
        `No sub account has the id or name “${escapeMrkdwn(failure.reference ?? '', 80)}” — \`/agent accounts\` lists them. ${NOTHING_CHANGED}`,
      );
    case 'busy':
      return reply(`Another capacity move is running — try again in a minute. ${NOTHING_CHANGED}`);
    case 'second_update_failed': {
      const cause = describeError(failure.cause, referenceId ?? '-');
      const state = failure.restored ? '' : ' An admin needs to check both accounts with `/agent accounts`.';
      return reply(`The capacity move failed: ${said}.${state}`, cause);
    }
    case 'verify_failed':
      return reply(
        `The capacity move may not have worked: ${said}. Check with \`/agent accounts\` (ref: ${referenceId ?? '-'}).`,
      );
    default:
      return reply(`${capitalise(said)}. ${NOTHING_CHANGED}`);
  }
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function renderMoved(outcome: Extract<CommandOutcome, { kind: 'capacity-moved' }>): CommandReply {
  const { from, to } = outcome.result;
  const line = (a: typeof from) =>
    `• *${escapeMrkdwn(a.accountName, 80)}* (${a.accountId}): ${gb(a.before)} → ${gb(a.after)}`;
  return reply(
    `Moved ${gb(outcome.gb)} of daily capacity from *${escapeMrkdwn(from.accountName, 80)}* to *${escapeMrkdwn(to.accountName, 80)}*.`,
    `${line(from)}\n${line(to)}`,
  );
}

function renderExported(outcome: Extract<CommandOutcome, { kind: 'exported' }>): CommandReply {
  const sent = outcome.delivery?.ok === true;
  const lines = outcome.files.map(
    (f) => `• ${f.type}: ${f.count} saved object${f.count === 1 ? '' : 's'} (\`${f.filename}\`)`,
  );
  const failed = outcome.failures.map((f) => `• ${f.type}: ${describeError(f.error, f.referenceId)}`);
  const head =
    outcome.files.length === 0
      ? 'The export failed:'
      : sent
        ? 'Exported — the files are in your direct messages with the bot:'
        : `Exported, but sending the files to you failed (ref: ${outcome.delivery?.ok === false ? outcome.delivery.referenceId : '-'}):`;
  return reply(head, [...lines, ...failed].join('\n'));
}

function renderWhoamiFailure(outcome: Extract<CommandOutcome, { kind: 'whoami-failed' }>): CommandReply {
  const ref = `(ref: ${outcome.referenceId})`;
  if (outcome.problem === 'invalid-token') {
    const said = outcome.serviceMessage ? ` “${escapeMrkdwn(outcome.serviceMessage, 200)}”` : '';
    return reply(
      `The bot's token is invalid: the agent service answered ${outcome.status ?? ''}${said}. An admin needs to set a valid AGENT_API_TOKEN ${ref}.`,
    );
  }
  if (outcome.problem === 'wrong-address') {
    const answer = outcome.status ? `HTTP ${outcome.status}` : 'something that is not an account';
    return reply(
      `The identity check got ${answer}: the API address or path is wrong. An admin needs to check AGENT_API_URL (the account's regional API address) ${ref}.`,
    );
  }
  return reply(describeError(outcome.error, outcome.referenceId));
}

/** The reply for any outcome. */
export function renderCommandOutcome(outcome: CommandOutcome): CommandReply {
  switch (outcome.kind) {
    case 'help':
      return renderHelp(outcome.unknown);
    case 'usage':
      return reply(
        `That didn't work: ${escapeMrkdwn(outcome.problem, 300)}.`,
        `Usage: \`${reserved(outcome.usage)}\``,
      );
    case 'refused':
      return reply(`Only ${ADMIN_AUDIENCE} can run \`${reserved(outcome.usage)}\`. ${NOTHING_CHANGED}`);
    case 'not-configured':
      return reply(
        'Account commands are not configured: the bot has no ACCOUNT_API_TOKEN (the main account’s API token). An operator needs to set it.',
      );
    case 'whoami':
      return reply(
        `Connected to *${escapeMrkdwn(outcome.accountName, 100)}* (account id ${outcome.accountId}).`,
      );
    case 'whoami-failed':
      return renderWhoamiFailure(outcome);
    case 'agent-state':
      return renderAgentState(outcome);
    case 'accounts':
      return renderAccounts(outcome.accounts);
    case 'account-created':
      return renderCreated(outcome);
    case 'capacity-moved':
      return renderMoved(outcome);
    case 'capacity-failed':
      return renderCapacityFailure(outcome.failure, outcome.referenceId);
    case 'exported':
      return renderExported(outcome);
    case 'service-error':
      return reply(describeError(outcome.error, outcome.referenceId));
  }
}

function renderAgentState(outcome: Extract<CommandOutcome, { kind: 'agent-state' }>): CommandReply {
  const agent = `\`${escapeMrkdwn(outcome.agentId, 100)}\``;
  const state = outcome.active ? 'enabled' : 'disabled';
  const reported = `the service reports \`active: ${outcome.active}\``;
  if (outcome.active === outcome.requested) return reply(`Agent ${agent} is now *${state}* (${reported}).`);
  return reply(
    `Asked to ${outcome.requested ? 'enable' : 'disable'} agent ${agent}, but ${reported}: it is *${state}*.`,
  );
}
