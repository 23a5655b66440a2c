import type { Logger } from '../runtime/logger.js';
import type { CommandContext, Invoker } from './command-context.js';

/**
 * An `/agent` subcommand (`<name>-command.ts`, listed in registry.ts; replies in slack/views/commands/).
 * Access and the audit line are the registry's, from the help lines and flags: no module can forget them.
 */
export interface Subcommand<C extends { kind: string }, O extends { kind: string }> {
  /** The first words that select it (`accounts`, `account`). */
  words: readonly string[];
  /** Its lines of the command reference, in the order the help shows them. */
  help: readonly HelpEntry[];
  /** The words after the first (`word`, lower case) → a command; throws UsageError. */
  parse?(args: string[], word: string): C;
  /** Or the raw text after the first word (the schedule's question is kept as typed). */
  parseText?(rest: string): C;
  /** The subcommand named when a quote is not closed (default: help). */
  unclosedQuote?: string;
  /** On the operator's main account: home installations only (DESIGN "The home workspaces"). */
  homeOnly?: boolean;
  /** Needs ACCOUNT_API_TOKEN (the main account's sub accounts). */
  needsAccountToken?: boolean;
  /** Takes a while: the ack says "Working on it…". */
  slow?: boolean;
  run(command: C, invoker: Invoker, context: CommandContext): Promise<O | CommonOutcome>;
  /** The audit line's words for the request; default: the command's own fields. */
  describe?(command: C): Record<string, unknown>;
  /** Audit fields of an outcome beyond who, what and the result. */
  auditFields?(outcome: O): Record<string, unknown>;
  /** The audit's result; default: ok. */
  result?(outcome: O): AuditResult;
  /** Whether the outcome changed what an admin's App Home shows (DESIGN "App Home"). */
  changesAdminHome?(outcome: O): boolean;
}

/** One line of the command reference. */
export interface HelpEntry {
  name: string;
  /** The syntax, exactly as typed: `<required>`, `[optional]`. */
  usage: string;
  description: string;
  /** A complete command a person can copy. */
  example: string;
  /** Only admins (ADMIN_USER_IDS, Slack workspace admins and owners) may run it. */
  adminOnly: boolean;
}

/** A help line; most subcommands are admins' and their example is their usage. */
export const helpLine = (
  name: string,
  usage: string,
  description: string,
  options: { example?: string; anyone?: boolean } = {},
): HelpEntry => ({ name, usage, description, example: options.example ?? usage, adminOnly: !options.anyone });

export const usageIn = (help: readonly HelpEntry[], name: string): string =>
  help.find((entry) => entry.name === name)?.usage ?? '/agent help';

/** What the audit line says was asked: the command's own fields (a module may leave some out). */
export const auditedRequest = ({ kind, ...args }: { kind: string }): Record<string, unknown> => ({
  subcommand: kind,
  ...args,
});

/** Thrown by a parser; the registry turns it into a usage reply naming `subcommand`'s usage line. */
export class UsageError extends Error {
  constructor(
    readonly subcommand: string,
    problem: string,
  ) {
    super(problem);
  }
}

export type AuditResult = 'ok' | 'refused' | 'failed';

/** A service failure, with the reference id that is also in the log line. */
export type ServiceFailure = { error: unknown; referenceId: string };

/** Outcomes every subcommand may end in; each module's own are in its file. */
export type CommonOutcome =
  | { kind: 'help'; unknown?: string | undefined }
  | { kind: 'usage'; problem: string; usage: string }
  /** A non-admin asked for an admin command; nothing was called on the service. */
  | { kind: 'refused'; usage: string }
  /** An account command without ACCOUNT_API_TOKEN, or a channel switch without its store. */
  | { kind: 'not-configured'; usage: string }
  /** DESIGN "The home workspaces": the operator's account serves the home installations only. */
  | { kind: 'home-only'; usage: string }
  /** Not a home installation and the channel is bound to none of its connections: nothing was sent. */
  | { kind: 'channel-unbound' }
  /** A channel command outside a channel (Slack always names one; kept for safety). */
  | { kind: 'channel-missing'; usage: string }
  | ({ kind: 'service-error'; action: string } & ServiceFailure);

/** A reference id for the reply, and the same id in a log line with the error's details. */
export function serviceFailure(
  context: { newReferenceId: () => string; logger: Logger },
  error: unknown,
  action: string,
): ServiceFailure {
  const referenceId = context.newReferenceId();
  context.logger.warn({ err: error, referenceId, action }, 'agent command failed');
  return { error, referenceId };
}
