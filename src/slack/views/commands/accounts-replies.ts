/** Replies of `/agent accounts [create …]`: the accounts table, and a created account. */
import { missingMembers, type SubAccount } from '../../../agent-api/index.js';
import type { AccountsOutcome } from '../../../commands/accounts-command.js';
import { escapeMrkdwn, type Replies, reply, reserved } from '../mrkdwn-reply.js';
import { accountsTable, MISSING_CELL } from './accounts-table.js';

export const name = (account: { accountName: string }) => `*${escapeMrkdwn(account.accountName, 80)}*`;

/** A listed account as a person recognises it, even from a row that lacks its name or id. */
const labelOf = (account: SubAccount) =>
  `${account.accountName == null ? '_an account without a name_' : name({ accountName: account.accountName })} (${account.accountId ?? 'no id'})`;

/**
 * What rows lack (the spec makes every listing member optional). An incomplete capped sub account
 * is not moved: a full-replacement update would reset what the bot cannot see.
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

function renderAccounts(accounts: readonly SubAccount[]) {
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

/** A created account; the spec's answer may be `{}`, so the reply says where its id and token are. */
function renderCreated(outcome: Extract<AccountsOutcome, { kind: 'account-created' }>) {
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

export const accountsReplies: Replies<AccountsOutcome> = {
  accounts: (outcome) => renderAccounts(outcome.accounts),
  'account-created': renderCreated,
};
