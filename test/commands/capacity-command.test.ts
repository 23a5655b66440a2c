import { describe, expect, it } from 'vitest';
import { AgentApiError } from '../../src/agent-api/index.js';
import { CapacityMoveError, type CapacityMoveLock, CapacityMoveReason } from '../../src/capacity/index.js';
import { type CommandOutcome, parseCommand } from '../../src/commands/registry.js';
import { renderCommandOutcome } from '../../src/slack/views/commands/index.js';
import { parseError, setup } from './command-harness.js';

const text = (outcome: CommandOutcome) => renderCommandOutcome(outcome).text;

describe('parsing /agent capacity move', () => {
  it.each([
    [
      'capacity move 2.5 from "QA Team" to prod',
      { kind: 'capacity-move', gb: 2.5, from: 'QA Team', to: 'prod' },
    ],
    ['capacity MOVE 3 FROM 200001 TO 200002', { kind: 'capacity-move', gb: 3, from: '200001', to: '200002' }],
    // Amounts ≤ 0 parse: the capacity move refuses them before any call, with its own sentence.
    ['capacity move 0 from a to b', { kind: 'capacity-move', gb: 0, from: 'a', to: 'b' }],
  ])('%j', (text, command) => {
    expect(parseCommand(text)).toEqual({ ok: true, command });
  });

  it.each([
    ['capacity shuffle', 'the only capacity command is `move`'],
    ['capacity move lots from a to b', '“lots” is not a number of GB'],
    ['capacity move 1 a to b', 'write it as `from <account> to <account>`'],
    ['capacity move 1 from QA Team to prod', 'write it as'],
    ['capacity move 1 from a to QA Team', 'unexpected “Team” (quote names that have spaces)'],
    ['capacity move 1 from "QA Team to prod', 'a quote is not closed'],
  ])('%j is refused with the usage line', (text, problem) => {
    const result = parseError(text);
    expect(result.subcommand).toBe('capacity-move');
    expect(result.problem).toContain(problem);
    expect(result.usage).toMatch(/^\/agent /);
  });
});

it('refuses a move while another holds the lock, before any call', async () => {
  const busy: CapacityMoveLock = { acquire: async () => false, release: async () => {} };
  const { run, calls } = setup({ capacityLock: () => busy });
  const outcome = await run('capacity move 1 from 1 to 2');
  expect(outcome.kind === 'capacity-failed' && outcome.failure.reason).toBe('busy');
  expect(calls).toEqual([]);
});

describe('/agent capacity replies', () => {
  it.each<[string, CommandOutcome, string]>([
    [
      'a capacity move',
      {
        kind: 'capacity-moved',
        gb: 0.1 + 0.2,
        result: {
          from: { accountId: 1, accountName: 'A', before: 5, after: 4.7 },
          to: { accountId: 2, accountName: 'B <x>', before: 1, after: 1.3 },
        },
      },
      'Moved 0.3 GB of daily capacity from *A* to *B &lt;x&gt;*.\n\n• *A* (1): 5 GB → 4.7 GB\n• *B &lt;x&gt;* (2): 1 GB → 1.3 GB',
    ],
  ])('%s', (_name, outcome, expected) => {
    expect(text(outcome)).toBe(expected);
  });

  it.each<[string, CapacityMoveError, string]>([
    [
      'ambiguous',
      new CapacityMoveError(CapacityMoveReason.AmbiguousAccount, 'x', {
        reference: 'staging',
        candidates: [
          { accountId: 2, accountName: 'Staging' },
          { accountId: 3, accountName: 'staging' },
        ],
      }),
      '“staging” names more than one account: Staging (2), staging (3). Use the id instead. Nothing was changed.',
    ],
    [
      'busy',
      new CapacityMoveError(CapacityMoveReason.Busy, 'x'),
      'Another capacity move is running — try again in a minute. Nothing was changed.',
    ],
    [
      'not restored',
      new CapacityMoveError(CapacityMoveReason.UpdateFailed, 'raising B failed', {
        failedStep: 'raise-recipient',
        states: [
          { accountId: 1, accountName: 'A', before: 5, now: 4 },
          { accountId: 2, accountName: 'B', before: 1, now: 1 },
        ],
        restored: false,
        cause: new AgentApiError('http_error', 'x', { status: 500 }),
      }),
      '• *A* (1): 5 GB → 4 GB\n• *B* (2): 1 GB → 1 GB\n\nPutting *A* back to 5 GB did not take effect: an admin needs to check both accounts',
    ],
    [
      'restored',
      new CapacityMoveError(CapacityMoveReason.UpdateFailed, 'raising B failed', {
        failedStep: 'raise-recipient',
        states: [
          { accountId: 1, accountName: 'A', before: 5, now: 5 },
          { accountId: 2, accountName: 'B', before: 1, now: 1 },
        ],
        restored: true,
        cause: new AgentApiError('timeout', 'x'),
      }),
      'The accounts as read back afterwards (before → now):\n• *A* (1): 5 GB → 5 GB\n• *B* (2): 1 GB → 1 GB\n\n*A* was put back to 5 GB.',
    ],
    [
      'state unknown',
      new CapacityMoveError(CapacityMoveReason.StateUnknown, 'lowering A failed', {
        failedStep: 'lower-donor',
        unknown: [
          { accountId: 1, accountName: 'A', possible: [5, 4] },
          { accountId: 2, accountName: 'B', possible: [1] },
        ],
        cause: new AgentApiError('network', 'x'),
      }),
      'Reading the accounts back failed too, so the bot changed nothing more and does not know their current values:\n• *A* (1): 5 GB or 4 GB\n• *B* (2): 1 GB\n\nCheck them with `/agent accounts`',
    ],
    [
      'state unknown after a restore was sent',
      new CapacityMoveError(CapacityMoveReason.StateUnknown, 'raising B failed', {
        failedStep: 'raise-recipient',
        restoreSent: true,
        unknown: [
          { accountId: 1, accountName: 'A', possible: [5, 4] },
          { accountId: 2, accountName: 'B', possible: [1, 2] },
        ],
        cause: new AgentApiError('timeout', 'x'),
      }),
      'The bot sent an update putting *A* back, then reading the accounts back failed',
    ],
    [
      'the main account',
      new CapacityMoveError(
        CapacityMoveReason.MainAccount,
        'Main (1) is the main account: its capacity is not moved by this command',
      ),
      'Main (1) is the main account: its capacity is not moved by this command. Nothing was changed.',
    ],
  ])('explains a capacity failure: %s', (_name, failure, expected) => {
    expect(text({ kind: 'capacity-failed', failure, referenceId: 'r2' })).toContain(expected);
  });
});
