import { accountsCommand } from './accounts-command.js';
import { agentStateCommand } from './agent-state-command.js';
import { alertsWebhookCommand } from './alerts-webhook-command.js';
import { capacityCommand } from './capacity-command.js';
import { channelCommand } from './channel-command.js';
import type { CommandContext, Invoker } from './command-context.js';
import { tokenize, unescapeSlackText } from './command-words.js';
import { connectionsCommand } from './connections-command.js';
import { exportCommand } from './export-command.js';
import { helpCommand } from './help-command.js';
import { scheduleCommand } from './schedule-command.js';
import {
  type AuditResult,
  auditedRequest,
  type CommonOutcome,
  type HelpEntry,
  type Subcommand,
  serviceFailure,
  UsageError,
} from './subcommand.js';
import { whoamiCommand } from './whoami-command.js';

/** Every `/agent` subcommand, in the order the help lists them (replies: slack/views/commands/index.ts). */
export const SUBCOMMANDS = [
  helpCommand,
  whoamiCommand,
  agentStateCommand,
  accountsCommand,
  capacityCommand,
  exportCommand,
  channelCommand,
  connectionsCommand,
  alertsWebhookCommand,
  scheduleCommand,
] as const;

type Module = (typeof SUBCOMMANDS)[number];
type AnySubcommand = Subcommand<{ kind: string }, { kind: string }>;
/** A subcommand, ready to run. */
export type AgentCommand = Module extends Subcommand<infer C, infer _O> ? C : never;
/** What running a subcommand produced, as data; slack/views/commands/ renders it. */
export type CommandOutcome = CommonOutcome | (Module extends Subcommand<infer _C, infer O> ? O : never);

export type ParseResult =
  | { ok: true; command: AgentCommand }
  | { ok: false; subcommand: string; problem: string; usage: string };

const MODULES: readonly AnySubcommand[] = SUBCOMMANDS;
const BY_WORD = new Map(MODULES.flatMap((module) => module.words.map((word) => [word, module] as const)));
const BY_NAME = new Map(
  MODULES.flatMap((module) => module.help.map((entry) => [entry.name, { module, entry }] as const)),
);

/** The command reference, in the order the help shows it. */
export const HELP_ENTRIES: readonly HelpEntry[] = MODULES.flatMap((module) => module.help);

/** The entry of one subcommand (every name has one). */
export function helpEntry(name: string): HelpEntry {
  const found = BY_NAME.get(name);
  if (!found) throw new Error(`no help entry for ${name}`);
  return found.entry;
}

export const usageOf = (name: string): string => helpEntry(name).usage;

const moduleOf = (name: string) => BY_NAME.get(name)?.module ?? helpCommand;

/** Parses the text after `/agent` (pure). Empty text, and an unknown subcommand, are `help`. */
export function parseCommand(rawText: string): ParseResult {
  const text = unescapeSlackText(rawText).trim();
  const word = /^\S*/.exec(text)?.[0] ?? '';
  const named = BY_WORD.get(word.toLowerCase());
  try {
    if (named?.parseText)
      return { ok: true, command: named.parseText(text.slice(word.length)) as AgentCommand };
    const tokens = tokenize(text);
    if (!tokens) throw new UsageError(named?.unclosedQuote ?? 'help', 'a quote is not closed');
    const [first = 'help', ...args] = tokens;
    const module = BY_WORD.get(first.toLowerCase());
    if (!module?.parse) return { ok: true, command: { kind: 'help', unknown: first } };
    return { ok: true, command: module.parse(args, first.toLowerCase()) as AgentCommand };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    const { subcommand, message: problem } = error;
    return { ok: false, subcommand, problem, usage: usageOf(subcommand) };
  }
}

const nameOf = (parsed: ParseResult) => (parsed.ok ? parsed.command.kind : parsed.subcommand);

/** Whether the subcommand takes a while (the ack says so at once). */
export const isSlow = (parsed: ParseResult): boolean => parsed.ok && moduleOf(nameOf(parsed)).slow === true;

/** Parsed → outcome; admin subcommands are checked before any service call, and audited. */
export async function runAgentCommand(
  parsed: ParseResult,
  invoker: Invoker,
  context: CommandContext,
): Promise<CommandOutcome> {
  const name = nameOf(parsed);
  const { usage, adminOnly } = helpEntry(name);
  const module = moduleOf(name);
  if (!adminOnly) {
    if (!parsed.ok) return { kind: 'usage', problem: parsed.problem, usage: parsed.usage };
    return (await module.run(parsed.command, invoker, context)) as CommandOutcome;
  }
  const outcome = await runAsAdmin(module, parsed, usage, invoker, context);
  audit(module, parsed, invoker, outcome, context);
  return outcome;
}

async function runAsAdmin(
  module: AnySubcommand,
  parsed: ParseResult,
  usage: string,
  invoker: Invoker,
  context: CommandContext,
): Promise<CommandOutcome> {
  if (!(await context.access.isAdmin(invoker.userId, context.tenant))) return { kind: 'refused', usage };
  if (!parsed.ok) return { kind: 'usage', problem: parsed.problem, usage: parsed.usage };
  if (module.homeOnly && !context.tenant.home) return { kind: 'home-only', usage };
  if (module.needsAccountToken && !context.accountsConfigured) return { kind: 'not-configured', usage };
  try {
    return (await module.run(parsed.command, invoker, context)) as CommandOutcome;
  } catch (error) {
    const action = parsed.command.kind;
    return { kind: 'service-error', action, ...serviceFailure(context, error, action) };
  }
}

const COMMON_RESULTS: Record<CommonOutcome['kind'], AuditResult> = {
  help: 'ok',
  usage: 'refused',
  refused: 'refused',
  'not-configured': 'refused',
  'home-only': 'refused',
  'channel-unbound': 'refused',
  'channel-missing': 'refused',
  'service-error': 'failed',
};
const isCommon = (outcome: { kind: string }): outcome is CommonOutcome =>
  Object.hasOwn(COMMON_RESULTS, outcome.kind);

/** One audit line per admin action: who, what, result, reference id; never a token or a question. */
function audit(
  module: AnySubcommand,
  parsed: ParseResult,
  invoker: Invoker,
  outcome: CommandOutcome,
  { logger }: CommandContext,
): void {
  const request = parsed.ok
    ? (module.describe ?? auditedRequest)(parsed.command)
    : { subcommand: parsed.subcommand, parseError: parsed.problem };
  const common = isCommon(outcome);
  logger.info(
    {
      audit: true,
      user: invoker.userId,
      channel: invoker.channelId,
      ...request,
      result: common ? COMMON_RESULTS[outcome.kind] : (module.result?.(outcome) ?? 'ok'),
      outcome: outcome.kind,
      ...('referenceId' in outcome ? { referenceId: outcome.referenceId } : {}),
      ...(common ? {} : module.auditFields?.(outcome)),
    },
    'admin command',
  );
}

/** Whether the outcome changed what an admin's App Home shows (agents, channels, connections, schedules). */
export function changesAdminHome(parsed: ParseResult, outcome: CommandOutcome): boolean {
  return !isCommon(outcome) && moduleOf(nameOf(parsed)).changesAdminHome?.(outcome) === true;
}
