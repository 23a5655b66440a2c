import {
  fitsInt32,
  INT32_MAX,
  isEmailAddress,
  SAVED_OBJECT_TYPES,
  type SavedObjectType,
} from '../agent-api/index.js';
import { aliasProblem } from '../connections/connection-alias.js';
import { isAgentId } from '../conversation/context/channel-agents.js';
import { type SubcommandName, usageOf } from './help-text.js';
import { isScheduleText, parseSchedule, type ScheduleCommand } from './schedule-parse.js';

/**
 * `/agent …` text → a typed subcommand, or a parse error carrying the usage line. Pure: no
 * Slack, no service. Unknown subcommands are not errors: they answer with the help.
 */

/** The saved-object types `/agent export` accepts (the service's `type`), in export order. */
export const EXPORT_TARGETS: readonly SavedObjectType[] = SAVED_OBJECT_TYPES;
export type ExportTarget = SavedObjectType;

/** A subcommand, ready to run. */
export type AgentCommand =
  /** `unknown` is what the person typed when it was not a subcommand. */
  | { kind: 'help'; unknown?: string }
  | { kind: 'whoami' }
  | { kind: 'enable' | 'disable'; agentId?: string }
  | { kind: 'accounts' }
  | {
      kind: 'accounts-create';
      name: string;
      email: string;
      retentionDays?: number;
      maxDailyGB?: number;
    }
  | { kind: 'capacity-move'; gb: number; from: string; to: string }
  | { kind: 'export'; types: ExportTarget[] }
  | { kind: 'channel' }
  /** `connection`: the alias after `on`; undefined: the default connection. */
  | { kind: 'channel-use'; agentId: string; connection?: string }
  | { kind: 'channel-reset' }
  | { kind: 'channel-investigate'; on: boolean }
  | { kind: 'channel-answer-all'; on: boolean }
  | { kind: 'connections' }
  | { kind: 'connections-add' }
  | { kind: 'connections-remove'; alias: string }
  /** `alerts webhook [rotate]`: the installation's own alert address and token. */
  | { kind: 'alerts-webhook'; rotate: boolean }
  /** `schedule`, `schedule add …`, `schedule remove <id>` (schedule-parse.ts). */
  | ScheduleCommand;

export type ParseResult =
  | { ok: true; command: AgentCommand }
  | { ok: false; subcommand: SubcommandName; problem: string; usage: string };

/** Thrown inside the parser only; parseCommand turns it into a ParseResult. */
class UsageError extends Error {
  constructor(
    readonly subcommand: SubcommandName,
    problem: string,
  ) {
    super(problem);
  }
}

const QUOTES: Record<string, string> = { '"': '"', "'": "'", '“': '”', '‘': '’' };

/**
 * Slack sends `&`, `<`, `>` escaped and, when the command escapes links, wraps emails as
 * `<mailto:a@b|a@b>`; both are undone so people's words come back as typed.
 */
export function unescapeSlackText(text: string): string {
  return text
    .replace(/<mailto:[^|>]+\|([^>]+)>/g, '$1')
    .replace(/<mailto:([^>]+)>/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/**
 * Splits on whitespace; a quoted run (straight or typographic quotes, which Slack clients often
 * substitute) is one token. Returns undefined on an unterminated quote.
 */
export function tokenize(text: string): string[] | undefined {
  const tokens: string[] = [];
  let index = 0;
  while (index < text.length) {
    const char = text[index] as string;
    if (/\s/.test(char)) {
      index += 1;
      continue;
    }
    const close = QUOTES[char];
    if (close !== undefined) {
      const end = text.indexOf(close, index + 1);
      if (end < 0) return undefined;
      tokens.push(text.slice(index + 1, end));
      index = end + 1;
      continue;
    }
    const match = /^\S+/.exec(text.slice(index));
    const word = match?.[0] ?? char;
    tokens.push(word);
    index += word.length;
  }
  return tokens;
}

/** A decimal number of GB: `2.5`, `2,5`, `2.5GB` (the unit is optional). */
export function parseGb(token: string | undefined): number | undefined {
  const match = /^([+-]?\d+(?:[.,]\d+)?|[+-]?[.,]\d+)\s*(?:gb)?$/i.exec(token ?? '');
  return match?.[1] ? Number(match[1].replace(',', '.')) : undefined;
}

function expectCount(name: SubcommandName, args: string[], min: number, max: number): void {
  if (args.length < min) throw new UsageError(name, 'something is missing');
  if (args.length > max) throw new UsageError(name, `unexpected “${args[max]}”`);
}

function parseActivation(kind: 'enable' | 'disable', args: string[]): AgentCommand {
  expectCount(kind, args, 0, 1);
  return args[0] ? { kind, agentId: args[0] } : { kind };
}

/**
 * `accounts create <name> <email> [retention-days] [max-daily-GB]`. The vendor's spec wants a
 * real-looking email and int32 numbers: a value it would refuse is named here, and nothing is sent.
 */
function parseCreate(args: string[]): AgentCommand {
  expectCount('accounts-create', args, 2, 4);
  const [name = '', email = '', retention, gb] = args;
  if (name.trim() === '') throw new UsageError('accounts-create', 'the account name is empty');
  if (!isEmailAddress(email)) {
    throw new UsageError('accounts-create', `“${email}” is not an email address (like name@example.com)`);
  }
  const command: AgentCommand = { kind: 'accounts-create', name: name.trim(), email };
  if (retention !== undefined) {
    if (!/^\d+$/.test(retention) || Number(retention) < 1) {
      throw new UsageError('accounts-create', `retention-days must be a whole number of days (1 or more)`);
    }
    if (!fitsInt32(Number(retention))) {
      throw new UsageError(
        'accounts-create',
        `retention-days ${retention} is more than the service accepts (at most ${INT32_MAX})`,
      );
    }
    command.retentionDays = Number(retention);
  }
  if (gb !== undefined) {
    const value = parseGb(gb);
    if (value === undefined || value < 0) {
      throw new UsageError('accounts-create', `max-daily-GB must be a number of GB (0 or more)`);
    }
    if (!fitsInt32(value)) {
      throw new UsageError(
        'accounts-create',
        `max-daily-GB ${gb} is more than the service accepts (at most ${INT32_MAX})`,
      );
    }
    command.maxDailyGB = value;
  }
  return command;
}

/** `move <GB> from <account> to <account>`; `from`/`to` in any case. */
function parseCapacity(args: string[]): AgentCommand {
  const [verb, amount, fromWord, from, toWord, to, ...rest] = args;
  if (verb?.toLowerCase() !== 'move')
    throw new UsageError('capacity-move', 'the only capacity command is `move`');
  const gb = parseGb(amount);
  if (gb === undefined) throw new UsageError('capacity-move', `“${amount ?? ''}” is not a number of GB`);
  if (fromWord?.toLowerCase() !== 'from' || toWord?.toLowerCase() !== 'to' || !from || !to) {
    throw new UsageError('capacity-move', 'write it as `from <account> to <account>`');
  }
  if (rest.length > 0) {
    throw new UsageError('capacity-move', `unexpected “${rest[0]}” (quote names that have spaces)`);
  }
  return { kind: 'capacity-move', gb, from, to };
}

function parseExport(args: string[]): AgentCommand {
  expectCount('export', args, 1, 1);
  const wanted = (args[0] ?? '').toLowerCase().replace(/s$/, '');
  if (wanted === 'all') return { kind: 'export', types: [...EXPORT_TARGETS] };
  const type = EXPORT_TARGETS.find((candidate) => candidate === wanted);
  if (!type) throw new UsageError('export', `“${args[0]}” is not search, visualization, dashboard or all`);
  return { kind: 'export', types: [type] };
}

/** `channel`, `channel use <agent-id>`, `channel reset`. */
function parseChannel(args: string[]): AgentCommand {
  const [verb, ...rest] = args;
  switch (verb?.toLowerCase()) {
    case undefined:
      return { kind: 'channel' };
    case 'use': {
      const [agentId = '', onWord, alias, ...extra] = rest;
      if (agentId === '') throw new UsageError('channel-use', 'something is missing');
      if (!isAgentId(agentId)) throw new UsageError('channel-use', `“${agentId}” is not an agent id`);
      if (onWord === undefined) return { kind: 'channel-use', agentId };
      if (onWord.toLowerCase() !== 'on') throw new UsageError('channel-use', `unexpected “${onWord}”`);
      if (alias === undefined)
        throw new UsageError('channel-use', 'the connection alias after `on` is missing');
      const wrong = aliasProblem(alias);
      if (wrong) throw new UsageError('channel-use', wrong);
      if (extra.length > 0) throw new UsageError('channel-use', `unexpected “${extra[0]}”`);
      return { kind: 'channel-use', agentId, connection: alias };
    }
    case 'reset':
      expectCount('channel-reset', rest, 0, 0);
      return { kind: 'channel-reset' };
    case 'investigate': {
      expectCount('channel-investigate', rest, 1, 1);
      const switched = rest[0]?.toLowerCase();
      if (switched !== 'on' && switched !== 'off')
        throw new UsageError('channel-investigate', `“${rest[0]}” is not \`on\` or \`off\``);
      return { kind: 'channel-investigate', on: switched === 'on' };
    }
    case 'answer-all': {
      expectCount('channel-answer-all', rest, 1, 1);
      const switched = rest[0]?.toLowerCase();
      if (switched !== 'on' && switched !== 'off')
        throw new UsageError('channel-answer-all', `“${rest[0]}” is not \`on\` or \`off\``);
      return { kind: 'channel-answer-all', on: switched === 'on' };
    }
    default:
      throw new UsageError(
        'channel',
        `unknown channel command “${verb}” (use \`use <agent-id>\`, \`reset\`, \`investigate on|off\` or \`answer-all on|off\`)`,
      );
  }
}

/**
 * `connections`, `connections add`, `connections remove <alias>`. Whatever follows `add` is
 * refused without being repeated: a token typed there would be in Slack's history.
 */
function parseConnections(args: string[]): AgentCommand {
  const [verb, ...rest] = args;
  switch (verb?.toLowerCase()) {
    case undefined:
      return { kind: 'connections' };
    case 'add':
      if (rest.length > 0) {
        throw new UsageError(
          'connections-add',
          'nothing goes after `add`: the alias, address and token go in the form it opens (never type a token into a command)',
        );
      }
      return { kind: 'connections-add' };
    case 'remove': {
      expectCount('connections-remove', rest, 1, 1);
      const alias = rest[0] ?? '';
      const wrong = aliasProblem(alias);
      if (wrong) throw new UsageError('connections-remove', wrong);
      return { kind: 'connections-remove', alias };
    }
    default:
      throw new UsageError('connections', 'unknown connections command (use `add` or `remove <alias>`)');
  }
}

/** `alerts webhook`, `alerts webhook rotate`. */
function parseAlerts(args: string[]): AgentCommand {
  const [what, verb, ...extra] = args.map((arg) => arg.toLowerCase());
  if (what !== 'webhook') throw new UsageError('alerts-webhook', 'unknown alerts command (use `webhook`)');
  if (verb !== undefined && verb !== 'rotate') throw new UsageError('alerts-webhook', `unexpected “${verb}”`);
  if (extra.length > 0) throw new UsageError('alerts-webhook', `unexpected “${extra[0]}”`);
  return { kind: 'alerts-webhook', rotate: verb === 'rotate' };
}

function parseTokens(tokens: string[]): AgentCommand {
  const [first = 'help', ...args] = tokens;
  switch (first.toLowerCase()) {
    case 'help':
      return { kind: 'help' };
    case 'whoami':
      return { kind: 'whoami' };
    case 'enable':
    case 'disable':
      return parseActivation(first.toLowerCase() as 'enable' | 'disable', args);
    case 'accounts':
    case 'account':
      if (args.length === 0) return { kind: 'accounts' };
      if (args[0]?.toLowerCase() === 'create') return parseCreate(args.slice(1));
      throw new UsageError('accounts-create', `unknown accounts command “${args[0]}”`);
    case 'capacity':
      return parseCapacity(args);
    case 'export':
      return parseExport(args);
    case 'channel':
      return parseChannel(args);
    case 'connections':
    case 'connection':
      return parseConnections(args);
    case 'alerts':
    case 'alert':
      return parseAlerts(args);
    default:
      return { kind: 'help', unknown: first };
  }
}

/** Parses the text after `/agent`. Empty text is `help`. */
export function parseCommand(rawText: string): ParseResult {
  const text = unescapeSlackText(rawText).trim();
  if (isScheduleText(text)) {
    const schedule = parseSchedule(text);
    return schedule.ok ? schedule : { ...schedule, usage: usageOf(schedule.subcommand) };
  }
  const tokens = tokenize(text);
  if (tokens === undefined) {
    // The subcommand is still knowable from the first word, for the usage line.
    const first = text.split(/\s+/)[0]?.toLowerCase();
    const subcommand: SubcommandName =
      first === 'capacity'
        ? 'capacity-move'
        : first === 'accounts'
          ? 'accounts-create'
          : first?.startsWith('connection')
            ? 'connections'
            : 'help';
    return { ok: false, subcommand, problem: 'a quote is not closed', usage: usageOf(subcommand) };
  }
  try {
    return { ok: true, command: parseTokens(tokens) };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return {
      ok: false,
      subcommand: error.subcommand,
      problem: error.message,
      usage: usageOf(error.subcommand),
    };
  }
}
