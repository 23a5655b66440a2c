import {
  type CapacityMoveError,
  CapacityMoveReason,
  type CapacityMoveResult,
  isCapacityMoveError,
  moveCapacity,
} from '../capacity/index.js';
import { parseGb } from './command-words.js';
import { helpLine, type Subcommand, serviceFailure, UsageError } from './subcommand.js';

type CapacityCommand = { kind: 'capacity-move'; gb: number; from: string; to: string };

export type CapacityOutcome =
  | { kind: 'capacity-moved'; gb: number; result: CapacityMoveResult }
  /** A refusal (before any write), or a failure after one (then with a reference id in the log). */
  | { kind: 'capacity-failed'; failure: CapacityMoveError; referenceId?: string | undefined };

const MOVE = 'capacity-move';

/** Reasons that mean something went wrong after a write, as opposed to a refusal before any. */
const MOVE_FAILURES: ReadonlySet<string> = new Set([
  CapacityMoveReason.UpdateFailed,
  CapacityMoveReason.StateUnknown,
  CapacityMoveReason.VerifyFailed,
]);

/** `/agent capacity move <GB> from <account> to <account>`: `from`/`to` in any case. */
export const capacityCommand: Subcommand<CapacityCommand, CapacityOutcome> = {
  words: ['capacity'],
  help: [
    helpLine(
      MOVE,
      '/agent capacity move <GB> from <account> to <account>',
      'Move max daily GB from one sub account to another (account = id or exact name; quote names with spaces).',
      { example: '/agent capacity move 2.5 from Production to "QA Team"' },
    ),
  ],
  unclosedQuote: MOVE,
  homeOnly: true,
  needsAccountToken: true,
  slow: true,
  parse(args) {
    const [verb, amount, fromWord, from, toWord, to, ...rest] = args;
    if (verb?.toLowerCase() !== 'move') throw new UsageError(MOVE, 'the only capacity command is `move`');
    const gb = parseGb(amount);
    if (gb === undefined) throw new UsageError(MOVE, `“${amount ?? ''}” is not a number of GB`);
    if (fromWord?.toLowerCase() !== 'from' || toWord?.toLowerCase() !== 'to' || !from || !to)
      throw new UsageError(MOVE, 'write it as `from <account> to <account>`');
    if (rest.length > 0) throw new UsageError(MOVE, `unexpected “${rest[0]}” (quote names that have spaces)`);
    return { kind: MOVE, gb, from, to };
  },
  async run({ gb, from, to }, _invoker, context) {
    try {
      const result = await moveCapacity(context.api, { gb, from, to }, { lock: context.capacityLock() });
      return { kind: 'capacity-moved', gb, result };
    } catch (error) {
      if (!isCapacityMoveError(error)) throw error;
      if (!MOVE_FAILURES.has(error.reason)) return { kind: 'capacity-failed', failure: error };
      // After a write: the details (and what the restore did) must be findable in the log.
      const { referenceId } = serviceFailure(context, error, MOVE);
      return { kind: 'capacity-failed', failure: error, referenceId };
    }
  },
  auditFields: (outcome) => (outcome.kind === 'capacity-failed' ? { reason: outcome.failure.reason } : {}),
  result(outcome) {
    if (outcome.kind === 'capacity-moved') return 'ok';
    return MOVE_FAILURES.has(outcome.failure.reason) ? 'failed' : 'refused';
  },
};
