/**
 * Replies of the account commands: the accounts table, a created account, a capacity move and
 * why one was refused or failed. What a failed move reports is what the listing showed when the
 * bot read it back, never what it merely sent (DESIGN, "Sub-account updates are full replacements").
 */

import { missingMembers, type SubAccount } from '../../agent-api/index.js';
import type { AccountCapacityState, CapacityMoveError } from '../../capacity/index.js';
import type { CommandOutcome } from '../../commands/command-outcome.js';
import { accountsTable, MISSING_CELL } from './accounts-table.js';
import { describeError } from './describe-error.js';
import { type CommandReply, escapeMrkdwn, gb, NOTHING_CHANGED, reply, reserved } from './mrkdwn-reply.js';

const name = (account: { accountName: string }) => `*${escapeMrkdwn(account.accountName, 80)}*`;
const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A listed account as a person recognises it, even from a row that lacks its name or id. */
const labelOf = (account: SubAccount) =>
  `${account.accountName == null ? '_an account without a name_' : name({ accountName: account.accountName })} (${account.accountId ?? 'no id'})`;

/**
 * Rows that came without members: the table shows what came (`?` for the rest), and this says
 * what is missing. The spec makes every listing member optional; a capped sub account whose row
 * is incomplete is not moved, because a full-replacement update would reset what the bot cannot see.
 */
function incompleteNotes(accounts: readonly SubAccount[]): string[] {
  return accounts.flatMap((account) => {
    const missing = missingMembers(account);
    if (missing.length === 0) return [];
    const movable = account.isOwner !== true && typeof account.maxDailyGB === 'number';
    const why = movable ? ': it takes no part in a capacity move until the listing shows it whole' : '';
    return [
      `:grey_question: ${labelOf(account)} came without ${missing.join(', ')} in the listing (shown as ${MISSING_CELL} or left out of the flags)${why}.`,
    ];
  });
}

/** Which kinds of account in this listing a capacity move leaves alone, as one sentence. */
function unmovableNote(accounts: readonly SubAccount[]): string {
  const noCap = accounts.filter((a) => a.isOwner !== true && a.maxDailyGB === null);
  const kinds = [
    accounts.some((a) => a.isOwner === true) && 'the main account',
    noCap.some((a) => a.isFlexible === true) && 'uncapped accounts',
    noCap.some((a) => a.isFlexible !== true) && 'accounts with no daily cap (consumption plan)',
  ].filter((kind): kind is string => typeof kind === 'string');
  if (kinds.length === 0) return '';
  const listed = kinds.length === 1 ? kinds[0] : `${kinds.slice(0, -1).join(', ')} and ${kinds.at(-1)}`;
  return `_Capacity moves are between capped sub accounts: ${listed} take no part._`;
}

/** `/agent accounts`: the table, then what a person should know about some rows. */
export function renderAccounts(accounts: readonly SubAccount[]): CommandReply {
  if (accounts.length === 0) return reply('There are no accounts.');
  const subs = accounts.filter((a) => a.isOwner !== true);
  const hasMain = subs.length < accounts.length;
  const title = `*Accounts* (${hasMain ? 'the main account and ' : ''}${subs.length} sub account${subs.length === 1 ? '' : 's'})`;
  const empty = subs
    .filter((a) => typeof a.maxDailyGB === 'number' && a.maxDailyGB <= 0)
    .map(
      (a) =>
        `:warning: ${labelOf(a)} is at 0 GB per day: it accepts no logs. ` +
        `Give it capacity with \`${reserved(`/agent capacity move <GB> from <account> to ${a.accountId ?? '<account>'}`)}\`.`,
    );
  return reply(
    title,
    ...accountsTable(accounts),
    ...empty,
    ...incompleteNotes(accounts),
    unmovableNote(accounts),
  );
}

/**
 * A created account. The spec's creation answer may be `{}`: the account exists all the same,
 * so the reply says it was created and where to find its id (`/agent accounts`) and token.
 */
export function renderCreated(outcome: Extract<CommandOutcome, { kind: 'account-created' }>): CommandReply {
  const id =
    outcome.accountId === undefined
      ? ' — the service did not say its id: `/agent accounts` lists it'
      : ` (id ${outcome.accountId})`;
  const created = `Created sub account ${name(outcome)}${id}, retention ${outcome.retentionDays} days${outcome.retentionDefaulted ? ' (the default)' : ''}.`;
  // Only ever rendered into the requester's ephemeral reply: it is the new account's secret.
  const token = outcome.accountToken
    ? `Its API token, shown only to you — store it somewhere safe: \`${outcome.accountToken}\``
    : "The service did not send the new account's token here: its token is on the account page of the product.";
  const target = outcome.accountId ?? '<account>';
  const note =
    outcome.maxDailyGB <= 0
      ? `:warning: Its max daily GB is 0${outcome.maxDailyGBDefaulted ? ' (the default)' : ''}, so it accepts no logs. ` +
        `Give it at least 1 GB: \`${reserved(`/agent capacity move 1 from <account> to ${target}`)}\`.`
      : '';
  return reply(created, token, note);
}

export function renderMoved(outcome: Extract<CommandOutcome, { kind: 'capacity-moved' }>): CommandReply {
  const { from, to } = outcome.result;
  const line = (a: typeof from) => `• ${name(a)} (${a.accountId}): ${gb(a.before)} → ${gb(a.after)}`;
  return reply(
    `Moved ${gb(outcome.gb)} of daily capacity from ${name(from)} to ${name(to)}.`,
    `${line(from)}\n${line(to)}`,
  );
}

const shown = (value: number | null | undefined) =>
  value === undefined ? 'not in the listing' : value === null ? 'uncapped' : gb(value);

/** After a failed PUT: what the listing showed, and what that means. */
function renderUpdateFailed(failure: CapacityMoveError, referenceId: string): CommandReply {
  const states = failure.states ?? [];
  const rows = states.map((s) => `• ${name(s)} (${s.accountId}): ${gb(s.before)} → ${shown(s.now)}`);
  const [donor] = states as [AccountCapacityState | undefined];
  const unchanged = states.every((s) => s.now === s.before);
  let meaning: string;
  if (failure.restored === true && donor) meaning = `${name(donor)} was put back to ${gb(donor.before)}.`;
  else if (failure.restored === false && donor)
    meaning = `Putting ${name(donor)} back to ${gb(donor.before)} did not take effect: an admin needs to check both accounts with \`/agent accounts\`.`;
  else if (unchanged) meaning = 'Nothing changed.';
  else meaning = 'An admin needs to check both accounts with `/agent accounts`.';
  return reply(
    `The capacity move failed: ${describeError(failure.cause, referenceId)}`,
    `The accounts as read back afterwards (before → now):\n${rows.join('\n')}`,
    meaning,
  );
}

/** A failed PUT and a failed re-read: the bot changed nothing more and says what is unknown. */
function renderStateUnknown(failure: CapacityMoveError, referenceId: string): CommandReply {
  const values = (failure.unknown ?? []).map(
    (u) => `• ${name(u)} (${u.accountId}): ${u.possible.map(gb).join(' or ')}`,
  );
  const what = failure.restoreSent
    ? `The bot sent an update putting ${name(failure.unknown?.[0] ?? { accountName: 'the donor' })} back, then reading the accounts back failed, so it changed nothing more and does not know their current values`
    : 'Reading the accounts back failed too, so the bot changed nothing more and does not know their current values';
  return reply(
    `The capacity move failed: ${describeError(failure.cause, referenceId)}`,
    `${what}:\n${values.join('\n')}`,
    'Check them with `/agent accounts` before moving capacity again.',
  );
}

export function renderCapacityFailure(
  failure: CapacityMoveError,
  referenceId: string | undefined,
): CommandReply {
  const said = escapeMrkdwn(failure.message, 400);
  const ref = referenceId ?? '-';
  switch (failure.reason) {
    case 'ambiguous_account': {
      const names = (failure.candidates ?? []).map(
        (c) => `${escapeMrkdwn(c.accountName, 80)} (${c.accountId ?? 'no id'})`,
      );
      return reply(
        `“${escapeMrkdwn(failure.reference ?? '', 80)}” names more than one account: ${names.join(', ')}. Use the id instead. ${NOTHING_CHANGED}`,
      );
    }
    case 'unknown_account':
      return reply(
        `No account has the id or name “${escapeMrkdwn(failure.reference ?? '', 80)}” — \`/agent accounts\` lists them. ${NOTHING_CHANGED}`,
      );
    case 'busy':
      return reply(`Another capacity move is running — try again in a minute. ${NOTHING_CHANGED}`);
    case 'update_failed':
      return renderUpdateFailed(failure, ref);
    case 'state_unknown':
      return renderStateUnknown(failure, ref);
    case 'verify_failed':
      return reply(
        `The capacity move may not have worked: ${said}. Check with \`/agent accounts\` (ref: ${ref}).`,
      );
    default:
      return reply(`${capitalise(said)}. ${NOTHING_CHANGED}`);
  }
}
