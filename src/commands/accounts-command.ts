import {
  DEFAULT_RETENTION_DAYS,
  fitsInt32,
  INT32_MAX,
  isEmailAddress,
  type SubAccount,
} from '../agent-api/index.js';
import { expectCount, parseGb } from './command-words.js';
import { auditedRequest, helpLine, type Subcommand, UsageError } from './subcommand.js';

type AccountsCommand =
  | { kind: 'accounts' }
  | { kind: 'accounts-create'; name: string; email: string; retentionDays?: number; maxDailyGB?: number };

export type AccountsOutcome =
  | { kind: 'accounts'; accounts: SubAccount[] }
  | {
      kind: 'account-created';
      /** Undefined when the service answered `{}` (its spec makes every member optional). */
      accountId?: number | undefined;
      accountName: string;
      /** A secret: only in the requester's ephemeral reply, never logged; undefined if not returned. */
      accountToken?: string | undefined;
      retentionDays: number;
      /** True when the admin gave no retention and DEFAULT_RETENTION_DAYS was sent. */
      retentionDefaulted: boolean;
      maxDailyGB: number;
      maxDailyGBDefaulted: boolean;
    };

const CREATE = 'accounts-create';

/** `accounts create …`: a value the service would refuse (its spec: an email, int32s) is named here, unsent. */
function parseCreate(args: string[]): AccountsCommand {
  const refuse = (problem: string) => new UsageError(CREATE, problem);
  /** `typed` as a number the service takes; `value` undefined: not the kind of number asked for. */
  const int32 = (what: string, typed: string, value: number | undefined, kind: string) => {
    if (value === undefined) throw refuse(`${what} must be ${kind}`);
    if (!fitsInt32(value))
      throw refuse(`${what} ${typed} is more than the service accepts (at most ${INT32_MAX})`);
    return value;
  };
  expectCount(CREATE, args, 2, 4);
  const [name = '', email = '', retention, gb] = args;
  if (name.trim() === '') throw refuse('the account name is empty');
  if (!isEmailAddress(email)) throw refuse(`“${email}” is not an email address (like name@example.com)`);
  const command: AccountsCommand = { kind: CREATE, name: name.trim(), email };
  if (retention !== undefined) {
    const days = /^\d+$/.test(retention) && Number(retention) >= 1 ? Number(retention) : undefined;
    command.retentionDays = int32('retention-days', retention, days, 'a whole number of days (1 or more)');
  }
  if (gb !== undefined) {
    const value = parseGb(gb);
    command.maxDailyGB = int32(
      'max-daily-GB',
      gb,
      value !== undefined && value >= 0 ? value : undefined,
      'a number of GB (0 or more)',
    );
  }
  return command;
}

/** `/agent accounts [create …]`: the main account's sub accounts. */
export const accountsCommand: Subcommand<AccountsCommand, AccountsOutcome> = {
  words: ['accounts', 'account'],
  help: [
    helpLine(
      'accounts',
      '/agent accounts',
      'List the main account and its sub accounts: name, id, max daily GB (or "uncapped" / "no daily cap"), retention days and flags.',
    ),
    helpLine(
      CREATE,
      '/agent accounts create <name> <admin-email> [retention-days] [max-daily-GB]',
      `Create a sub account (retention defaults to ${DEFAULT_RETENTION_DAYS} days); its API token is shown only to you. Quote names with spaces.`,
      { example: '/agent accounts create "QA Team" admin@example.com 7 5' },
    ),
  ],
  unclosedQuote: CREATE,
  homeOnly: true,
  needsAccountToken: true,
  parse(args) {
    if (args.length === 0) return { kind: 'accounts' };
    if (args[0]?.toLowerCase() === 'create') return parseCreate(args.slice(1));
    throw new UsageError(CREATE, `unknown accounts command “${args[0]}”`);
  },
  async run(command, _invoker, { api }) {
    if (command.kind === 'accounts') return { kind: 'accounts', accounts: await api.listSubAccounts() };
    const retentionDays = command.retentionDays ?? DEFAULT_RETENTION_DAYS;
    const created = await api.createSubAccount({
      accountName: command.name,
      email: command.email,
      retentionDays,
      maxDailyGB: command.maxDailyGB,
      sharingObjectsAccounts: [],
    });
    return {
      kind: 'account-created',
      accountId: created.accountId,
      accountName: command.name,
      accountToken: created.accountToken,
      retentionDays,
      retentionDefaulted: command.retentionDays === undefined,
      // The service's default when none was sent.
      maxDailyGB: command.maxDailyGB ?? 0,
      maxDailyGBDefaulted: command.maxDailyGB === undefined,
    };
  },
  // The email is personal, and the audit does not need it.
  describe(command) {
    if (command.kind === 'accounts') return auditedRequest(command);
    const { kind, email: _email, ...rest } = command;
    return { subcommand: kind, ...rest };
  },
  auditFields: (outcome) => (outcome.kind === 'account-created' ? { accountId: outcome.accountId } : {}),
};
