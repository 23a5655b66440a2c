/** The `/agent` command reference (registry.ts): the help reply, usage lines, README's "Commands" section. */
import { HELP_ENTRIES } from './registry.js';

export { HELP_ENTRIES, usageOf } from './registry.js';

/** Who counts as an admin, in the words every refusal and the help use. */
export const ADMINS_ARE =
  'Slack workspace admins and owners, and (in the home workspaces) people in ADMIN_USER_IDS';
/** "admins (…)": the subject of a refusal. */
export const ADMIN_AUDIENCE = `admins (${ADMINS_ARE})`;

/** The reference as a Markdown table; pipes in usage lines are escaped so the table keeps its columns. */
export function helpMarkdown(): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  const rows = HELP_ENTRIES.map(
    (entry) =>
      `| \`${cell(entry.usage)}\` | ${cell(entry.description)} | \`${cell(entry.example)}\` | ${entry.adminOnly ? 'admins' : 'anyone'} |`,
  );
  return ['| Command | What it does | Example | Who |', '|---|---|---|---|', ...rows].join('\n');
}
