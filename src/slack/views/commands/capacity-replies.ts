/** `/agent capacity move`; a failure shows what was read back (DESIGN "Sub-account updates…"). */
import type { AccountCapacityState, CapacityMoveError } from '../../../capacity/index.js';
import type { CapacityOutcome } from '../../../commands/capacity-command.js';
import { describeError } from '../describe-error.js';
import { escapeMrkdwn, gb, NOTHING_CHANGED, type Replies, reply } from '../mrkdwn-reply.js';
import { name } from './accounts-replies.js';

function renderMoved(outcome: Extract<CapacityOutcome, { kind: 'capacity-moved' }>) {
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
function renderUpdateFailed(failure: CapacityMoveError, referenceId: string) {
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
function renderStateUnknown(failure: CapacityMoveError, referenceId: string) {
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

/** A refusal before any write, or a move that may not have worked: one sentence. */
function failureText(failure: CapacityMoveError, ref: string): string {
  const said = escapeMrkdwn(failure.message, 400);
  switch (failure.reason) {
    case 'ambiguous_account': {
      const names = (failure.candidates ?? []).map(
        (c) => `${escapeMrkdwn(c.accountName, 80)} (${c.accountId ?? 'no id'})`,
      );
      return `“${escapeMrkdwn(failure.reference ?? '', 80)}” names more than one account: ${names.join(', ')}. Use the id instead. ${NOTHING_CHANGED}`;
    }
    case 'unknown_account':
      return `No account has the id or name “${escapeMrkdwn(failure.reference ?? '', 80)}” — \`/agent accounts\` lists them. ${NOTHING_CHANGED}`;
    case 'busy':
      return `Another capacity move is running — try again in a minute. ${NOTHING_CHANGED}`;
    case 'verify_failed':
      return `The capacity move may not have worked: ${said}. Check with \`/agent accounts\` (ref: ${ref}).`;
    default:
      return `${said.charAt(0).toUpperCase()}${said.slice(1)}. ${NOTHING_CHANGED}`;
  }
}

export const capacityReplies: Replies<CapacityOutcome> = {
  'capacity-moved': renderMoved,
  'capacity-failed': ({ failure, referenceId = '-' }) => {
    if (failure.reason === 'update_failed') return renderUpdateFailed(failure, referenceId);
    if (failure.reason === 'state_unknown') return renderStateUnknown(failure, referenceId);
    return failureText(failure, referenceId);
  },
};
