/**
 * The `/agent` command reference: one source of truth for the help reply, the usage line shown
 * with a parse error, and the README's "Commands" section (a test checks the README against it).
 */
import { DEFAULT_RETENTION_DAYS } from '../agent-api/index.js';

/** Every subcommand a person can type; `accounts-create` and `capacity-move` are two words. */
export type SubcommandName =
  | 'help'
  | 'whoami'
  | 'enable'
  | 'disable'
  | 'accounts'
  | 'accounts-create'
  | 'capacity-move'
  | 'export'
  | 'channel'
  | 'channel-use'
  | 'channel-reset'
  | 'channel-investigate'
  | 'channel-answer-all'
  | 'connections'
  | 'connections-add'
  | 'connections-remove'
  | 'alerts-webhook'
  | 'schedule'
  | 'schedule-add'
  | 'schedule-remove';

/** One line of the command reference. */
export interface HelpEntry {
  name: SubcommandName;
  /** The syntax, exactly as typed: `<required>`, `[optional]`. */
  usage: string;
  description: string;
  /** A complete command a person can copy. */
  example: string;
  /** Only admins (ADMIN_USER_IDS, Slack workspace admins and owners) may run it. */
  adminOnly: boolean;
}

/** The command reference, in the order the help shows it. */
export const HELP_ENTRIES: readonly HelpEntry[] = [
  {
    name: 'help',
    usage: '/agent help',
    description: 'List every /agent command with an example.',
    example: '/agent help',
    adminOnly: false,
  },
  {
    name: 'whoami',
    usage: '/agent whoami',
    description: "Show which agent-service account the bot's token is connected to.",
    example: '/agent whoami',
    adminOnly: false,
  },
  {
    name: 'enable',
    usage: '/agent enable [agent-id]',
    description: "Turn an agent on (default: this channel's agent, else the bot's agent, AGENT_ID).",
    example: '/agent enable',
    adminOnly: true,
  },
  {
    name: 'disable',
    usage: '/agent disable [agent-id]',
    description:
      "Turn an agent off, so it starts no new runs (default: this channel's agent, else the bot's agent, AGENT_ID).",
    example: '/agent disable my-agent-id',
    adminOnly: true,
  },
  {
    name: 'accounts',
    usage: '/agent accounts',
    description:
      'List the main account and its sub accounts: name, id, max daily GB (or "uncapped" / "no daily cap"), retention days and flags.',
    example: '/agent accounts',
    adminOnly: true,
  },
  {
    name: 'accounts-create',
    usage: '/agent accounts create <name> <admin-email> [retention-days] [max-daily-GB]',
    description: `Create a sub account (retention defaults to ${DEFAULT_RETENTION_DAYS} days); its API token is shown only to you. Quote names with spaces.`,
    example: '/agent accounts create "QA Team" admin@example.com 7 5',
    adminOnly: true,
  },
  {
    name: 'capacity-move',
    usage: '/agent capacity move <GB> from <account> to <account>',
    description:
      'Move max daily GB from one sub account to another (account = id or exact name; quote names with spaces).',
    example: '/agent capacity move 2.5 from Production to "QA Team"',
    adminOnly: true,
  },
  {
    name: 'export',
    usage: '/agent export <search|visualization|dashboard|all>',
    description: 'Export saved objects as JSON files, sent to you in a direct message.',
    example: '/agent export all',
    adminOnly: true,
  },
  {
    name: 'channel',
    usage: '/agent channel',
    description: "Show which agent new threads in this channel use (the channel's own, or AGENT_ID).",
    example: '/agent channel',
    adminOnly: false,
  },
  {
    name: 'channel-use',
    usage: '/agent channel use <agent-id> [on <alias>]',
    description:
      'Make new threads in this channel use that agent (on the service connection `alias`, else the default one); threads already started keep their agent and connection.',
    example: '/agent channel use payments-agent on eu-prod',
    adminOnly: true,
  },
  {
    name: 'channel-reset',
    usage: '/agent channel reset',
    description: 'Make new threads in this channel use the bot’s agent (AGENT_ID) again.',
    example: '/agent channel reset',
    adminOnly: true,
  },
  {
    name: 'channel-investigate',
    usage: '/agent channel investigate <on|off>',
    description:
      'Investigate every new alert other bots and integrations post in this channel (recoveries aside), in its thread.',
    example: '/agent channel investigate on',
    adminOnly: true,
  },
  {
    name: 'channel-answer-all',
    usage: '/agent channel answer-all <on|off>',
    description:
      'Answer every new top-level message people inside post in this channel, in its thread, without a mention (replies stay follow-ups).',
    example: '/agent channel answer-all on',
    adminOnly: true,
  },
  {
    name: 'connections',
    usage: '/agent connections',
    description:
      'List the service connections: alias, account, region and health (each checked with /v2/whoami now).',
    example: '/agent connections',
    adminOnly: true,
  },
  {
    name: 'connections-add',
    usage: '/agent connections add',
    description:
      'Add a service connection in a form: alias, region address and API token (never typed into a command). The token is checked with /v2/whoami and kept encrypted; needs STATE_ENCRYPTION_KEY.',
    example: '/agent connections add',
    adminOnly: true,
  },
  {
    name: 'connections-remove',
    usage: '/agent connections remove <alias>',
    description: 'Remove a service connection; refused while a channel uses it.',
    example: '/agent connections remove eu-prod',
    adminOnly: true,
  },
  {
    name: 'alerts-webhook',
    usage: '/agent alerts webhook [rotate]',
    description:
      'Show (only to you) this workspace’s own alert address and its token, made on first use; `rotate` replaces the token. Alerts sent with it are investigated in this workspace’s channels only, on each channel’s agent.',
    example: '/agent alerts webhook',
    adminOnly: true,
  },
  {
    name: 'schedule',
    usage: '/agent schedule',
    description:
      'List this channel’s scheduled questions (this workspace’s): id, days, time with its time zone, next run, who added it.',
    example: '/agent schedule',
    adminOnly: true,
  },
  {
    name: 'schedule-add',
    usage: '/agent schedule add <daily|weekdays|mon,tue,…> <HH:MM> <question>',
    description:
      'Ask the question in this channel at that time (in your Slack time zone) and answer it in its thread, on the channel’s agent. Refused in channels people outside the organisation can read.',
    example: '/agent schedule add weekdays 08:30 what broke overnight?',
    adminOnly: true,
  },
  {
    name: 'schedule-remove',
    usage: '/agent schedule remove <id>',
    description: 'Remove one of this workspace’s scheduled questions (its id is in `/agent schedule`).',
    example: '/agent schedule remove 3f9a1c',
    adminOnly: true,
  },
];

/** The entry of one subcommand (every name has one). */
export function helpEntry(name: SubcommandName): HelpEntry {
  const entry = HELP_ENTRIES.find((candidate) => candidate.name === name);
  if (!entry) throw new Error(`no help entry for ${name}`);
  return entry;
}

/** The usage line of one subcommand, e.g. for a parse error. */
export function usageOf(name: SubcommandName): string {
  return helpEntry(name).usage;
}

/** Who counts as an admin, in the words every refusal and the help use. */
export const ADMINS_ARE =
  'Slack workspace admins and owners, and (in the home workspaces) people in ADMIN_USER_IDS';
/** "admins (…)": the subject of a refusal. */
export const ADMIN_AUDIENCE = `admins (${ADMINS_ARE})`;

/**
 * The reference as Markdown (a table), for the README's "Commands" section. Pipes in usage
 * lines are escaped so the table keeps its columns.
 */
export function helpMarkdown(): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  const rows = HELP_ENTRIES.map(
    (entry) =>
      `| \`${cell(entry.usage)}\` | ${cell(entry.description)} | \`${cell(entry.example)}\` | ${entry.adminOnly ? 'admins' : 'anyone'} |`,
  );
  return ['| Command | What it does | Example | Who |', '|---|---|---|---|', ...rows].join('\n');
}
