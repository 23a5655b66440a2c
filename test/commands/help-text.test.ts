import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HELP_ENTRIES, helpMarkdown, usageOf } from '../../src/commands/help-text.js';
import { parseCommand } from '../../src/commands/registry.js';
import { renderHelp } from '../../src/slack/views/commands/index.js';

describe('help entries', () => {
  it('cover every subcommand once, each with a description and an example', () => {
    const names = HELP_ENTRIES.map((entry) => entry.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.sort()).toEqual(
      [
        'accounts',
        'alerts-webhook',
        'accounts-create',
        'capacity-move',
        'channel',
        'channel-reset',
        'channel-investigate',
        'channel-answer-all',
        'channel-use',
        'connections',
        'connections-add',
        'connections-remove',
        'disable',
        'enable',
        'export',
        'help',
        'schedule',
        'schedule-add',
        'schedule-remove',
        'whoami',
      ].sort(),
    );
    for (const entry of HELP_ENTRIES) {
      expect(entry.usage).toMatch(/^\/agent /);
      expect(entry.description.length).toBeGreaterThan(10);
      expect(entry.description).not.toContain('\n');
    }
  });

  it('have examples that parse as the subcommand they illustrate', () => {
    for (const entry of HELP_ENTRIES) {
      const parsed = parseCommand(entry.example.replace(/^\/agent\s*/, ''));
      expect(parsed.ok, entry.example).toBe(true);
      if (parsed.ok) expect(parsed.command.kind).toBe(entry.name);
    }
  });

  it("only help, whoami and channel (showing the channel's agent) are open to everyone", () => {
    expect(HELP_ENTRIES.filter((entry) => !entry.adminOnly).map((entry) => entry.name)).toEqual([
      'help',
      'whoami',
      'channel',
    ]);
  });

  it('render into the help reply with placeholders escaped for mrkdwn', () => {
    const { text } = renderHelp();
    expect(text).toContain('`/agent export &lt;search|visualization|dashboard|all&gt;`');
    expect(text).not.toMatch(/<[a-z]/);
    // What a person typed is untrusted text too: it cannot ping the channel.
    const unknown = renderHelp('<!channel>').text;
    expect(unknown).toContain('is not an `/agent` command');
    expect(unknown).not.toContain('<!channel>');
  });

  it('render as a Markdown table for the README', () => {
    const table = helpMarkdown();
    expect(table.split('\n')).toHaveLength(HELP_ENTRIES.length + 2);
    expect(table).toContain(`| \`${usageOf('whoami')}\` |`);
  });
});

/** The README's "Commands" section: from its heading to the next heading of the same or higher level. */
function commandsSection(readme: string): string | undefined {
  const lines = readme.split('\n');
  const start = lines.findIndex((line) => /^#{1,6}\s+commands\b/i.test(line));
  if (start < 0) return undefined;
  const level = (/^#+/.exec(lines[start] ?? '')?.[0] ?? '#').length;
  const end = lines.findIndex((line, i) => i > start && new RegExp(`^#{1,${level}}\\s`).test(line));
  return lines.slice(start, end < 0 ? undefined : end).join('\n');
}

describe('README', () => {
  const readmePath = fileURLToPath(new URL('../../README.md', import.meta.url));

  it('lists every usage line of the help in its Commands section', () => {
    const section = commandsSection(readFileSync(readmePath, 'utf8'));
    expect(section, 'README.md needs a "Commands" section').toBeDefined();
    // A Markdown table escapes `|` as `\|`; either spelling counts.
    const normalised = (section ?? '').replace(/\\\|/g, '|');
    const missing = HELP_ENTRIES.filter((entry) => !normalised.includes(entry.usage)).map(
      (entry) => entry.usage,
    );
    expect(missing).toEqual([]);
  });
});
