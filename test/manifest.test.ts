import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { HELP_ENTRIES } from '../src/commands/help-text.js';
import { DEFAULT_SUGGESTED_PROMPTS } from '../src/config/load-config.js';
import { BOT_DISPLAY_NAME, renderInstalledPage } from '../src/slack/installations/install-pages.js';
import { LISTENED_EVENTS } from '../src/slack/listeners/events/index.js';

/**
 * manifest.yml against the code: the events, scopes and command the app declares must cover
 * what the bot listens to and calls. The lists below are read from the source, so a new
 * listener or Web API call without its manifest entry (or its row in the tables) fails here.
 */

const root = fileURLToPath(new URL('..', import.meta.url));

interface Manifest {
  _metadata?: { major_version?: number; minor_version?: number };
  display_information: { name: string; description?: string };
  features: {
    bot_user?: { display_name: string; always_online?: boolean };
    app_home?: {
      home_tab_enabled?: boolean;
      messages_tab_enabled?: boolean;
      messages_tab_read_only_enabled?: boolean;
    };
    agent_view?: { agent_description?: string; suggested_prompts?: { title: string; message: string }[] };
    assistant_view?: unknown;
    slash_commands?: {
      command: string;
      url?: string;
      description: string;
      usage_hint?: string;
      should_escape?: boolean;
    }[];
  };
  oauth_config: { scopes: { bot: string[] } };
  settings: {
    event_subscriptions: { request_url?: string; bot_events: string[] };
    interactivity?: { is_enabled: boolean; request_url?: string };
    socket_mode_enabled?: boolean;
    org_deploy_enabled?: boolean;
    token_rotation_enabled?: boolean;
  };
}

const manifest = parse(readFileSync(join(root, 'manifest.yml'), 'utf8')) as Manifest;

/** Bolt event name → the manifest's bot_events it needs, and the scopes those events need. */
const EVENT_SUBSCRIPTIONS: Record<string, { botEvents: string[]; scopes: string[] }> = {
  app_mention: { botEvents: ['app_mention'], scopes: ['app_mentions:read'] },
  // One `message` listener serves channels, private channels, DMs and group DMs.
  message: {
    botEvents: ['message.channels', 'message.groups', 'message.im', 'message.mpim'],
    scopes: ['channels:history', 'groups:history', 'im:history', 'mpim:history'],
  },
  reaction_added: { botEvents: ['reaction_added'], scopes: ['reactions:read'] },
  // The agent view's Messages tab opened (suggested prompts); the Home tab opened (views.publish).
  app_home_opened: { botEvents: ['app_home_opened'], scopes: [] },
  // Stop on a thread's agent session, and what the person views (the agent view; no scope of its own).
  agent_session_stopped: { botEvents: ['agent_session_stopped'], scopes: [] },
  app_context_changed: { botEvents: ['app_context_changed'], scopes: [] },
  // Who can read a conversation changed (sharing, membership): the audience is asked again.
  channel_shared: { botEvents: ['channel_shared'], scopes: ['channels:read'] },
  channel_unshared: { botEvents: ['channel_unshared'], scopes: ['channels:read'] },
  member_joined_channel: { botEvents: ['member_joined_channel'], scopes: ['channels:read', 'groups:read'] },
  member_left_channel: { botEvents: ['member_left_channel'], scopes: ['channels:read', 'groups:read'] },
  // OAuth distribution: an installation is forgotten (no scope needed).
  app_uninstalled: { botEvents: ['app_uninstalled'], scopes: [] },
  tokens_revoked: { botEvents: ['tokens_revoked'], scopes: [] },
};

/**
 * Web API method → the bot scopes it needs (https://docs.slack.dev/reference/methods).
 * A method the code calls that is missing here fails the test: add its row, then its scope.
 */
const METHOD_SCOPES: Record<string, string[]> = {
  'auth.test': [],
  'chat.postMessage': ['chat:write'],
  'chat.update': ['chat:write'],
  'chat.delete': ['chat:write'],
  'chat.postEphemeral': ['chat:write'],
  // Bolt's `say` is chat.postMessage; `setStatus` is assistant.threads.setStatus, under chat:write.
  'assistant.threads.setStatus': ['chat:write'],
  // The agent view: suggested prompts and thread titles.
  'assistant.threads.setSuggestedPrompts': ['assistant:write'],
  'assistant.threads.setTitle': ['assistant:write'],
  // Agent sessions: processing / active and the session's title (the Stop button).
  'agents.sessions.setStatus': ['chat:write'],
  'agents.sessions.rename': ['chat:write'],
  // The comment form behind the feedback buttons (interactivity, no scope).
  'views.open': [],
  // App Home (no scope: https://docs.slack.dev/reference/methods/views.publish).
  'views.publish': [],
  'reactions.add': ['reactions:write'],
  // A thread can be in a public or private channel, a DM or a group DM.
  'conversations.replies': ['channels:history', 'groups:history', 'im:history', 'mpim:history'],
  'conversations.open': ['im:write'],
  // Who can read a conversation: any kind of conversation the bot is asked in.
  'conversations.info': ['channels:read', 'groups:read', 'mpim:read', 'im:read'],
  'conversations.members': ['channels:read', 'groups:read', 'mpim:read', 'im:read'],
  // The link to a question whose answer went to a DM.
  'chat.getPermalink': [],
  'users.info': ['users:read'],
  // files.getUploadURLExternal + files.completeUploadExternal.
  filesUploadV2: ['files:write'],
};

/** The bot's own source: src/ (the stand-ins for Slack and the agent service live in dev/). */
function botSources(): { path: string; text: string }[] {
  const srcDir = join(root, 'src');
  return readdirSync(srcDir, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.ts'))
    .map((path) => ({ path, text: readFileSync(join(srcDir, path), 'utf8') }));
}

const sources = botSources();

function matchesIn(pattern: RegExp): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const { path, text } of sources) {
    for (const match of text.matchAll(pattern)) {
      // A formatter may break `client.chat\n  .postEphemeral(` over lines.
      const name = (match.slice(1).find((group) => group !== undefined) ?? '').replace(/\s+/g, '');
      found.set(name, [...(found.get(name) ?? []), path]);
    }
  }
  return found;
}

const SLACK_FAMILIES =
  'admin|agents|apps|assistant|auth|bookmarks|bots|canvases|chat|conversations|dnd|emoji|files|pins|reactions|reminders|search|team|usergroups|users|views|workflows';
/**
 * `client.chat.postMessage(` (any receiver named like a client: `app.client`, `slackClient`…),
 * `client.apiCall('x.y'` and `client.paginate('x.y'`, `client.filesUploadV2(`, and Bolt's `say(` /
 * `setStatus(` helpers.
 */
const calledMethods = (() => {
  const methods = matchesIn(
    new RegExp(
      `\\b[\\w$]*[cC]lient\\.((?:${SLACK_FAMILIES})(?:\\s*\\.[a-zA-Z]+)+)\\(|(?:apiCall|paginate)\\(\\s*['"]([^'"]+)['"]|\\b(filesUploadV2)\\(`,
      'g',
    ),
  );
  for (const [helper, method] of [
    ['say', 'chat.postMessage'],
    ['setStatus', 'assistant.threads.setStatus'],
  ] as const) {
    const uses = matchesIn(new RegExp(`(?<![.\\w])(${helper})\\(`, 'g')).get(helper);
    if (uses) methods.set(method, [...(methods.get(method) ?? []), ...uses]);
  }
  return methods;
})();

const listenedEvents = matchesIn(/\bapp\.event\(\s*['"]([^'"]+)['"]/g);
// The events router registers one Bolt listener for its table of types (events/index.ts).
for (const event of LISTENED_EVENTS) {
  listenedEvents.set(event, [...(listenedEvents.get(event) ?? []), 'slack/listeners/events/index.ts']);
}
const messageListeners = matchesIn(/\bapp\.(message)\(/g);
if (messageListeners.size > 0) listenedEvents.set('message', [...messageListeners.values()].flat());
const commands = matchesIn(/\bapp\.command\(\s*['"]([^'"]+)['"]/g);

/**
 * Shared files read from Slack's `url_private_download` with the bot token: no Web API method, but
 * `files:read` (https://docs.slack.dev/messaging/working-with-files#downloading).
 */
const downloadsFiles = botSources().some((source) => /\burl_private_download\b/.test(source.text));

const botEvents = manifest.settings.event_subscriptions.bot_events;
const scopes = manifest.oauth_config.scopes.bot;

describe('manifest.yml', () => {
  it('finds the listeners and Web API calls in the source (the scan itself works)', () => {
    expect([...listenedEvents.keys()]).toEqual(expect.arrayContaining(['app_mention', 'message']));
    expect([...calledMethods.keys()]).toEqual(
      expect.arrayContaining(['chat.postMessage', 'conversations.replies', 'filesUploadV2']),
    );
    expect([...commands.keys()]).toContain('/agent');
  });

  it('subscribes to every event the code listens to, and only those', () => {
    const unknown = [...listenedEvents.keys()].filter((event) => !EVENT_SUBSCRIPTIONS[event]);
    expect(unknown, 'events listened to with no row in EVENT_SUBSCRIPTIONS').toEqual([]);
    const needed = [...listenedEvents.keys()].flatMap((event) => EVENT_SUBSCRIPTIONS[event]?.botEvents ?? []);
    expect(botEvents).toEqual(expect.arrayContaining(needed));
    expect(
      botEvents.filter((event) => !needed.includes(event)),
      'bot_events no listener handles',
    ).toEqual([]);
  });

  it('grants every scope the events, the command and the Web API calls need, and no other', () => {
    const unknown = [...calledMethods.keys()].filter((method) => !METHOD_SCOPES[method]);
    expect(
      unknown.map((method) => `${method} (${calledMethods.get(method)?.join(', ')})`),
      'Web API methods called with no row in METHOD_SCOPES',
    ).toEqual([]);
    const needed = new Set([
      ...[...listenedEvents.keys()].flatMap((event) => EVENT_SUBSCRIPTIONS[event]?.scopes ?? []),
      ...[...calledMethods.keys()].flatMap((method) => METHOD_SCOPES[method] ?? []),
      ...(commands.size > 0 ? ['commands'] : []),
      ...(downloadsFiles ? ['files:read'] : []),
    ]);
    expect(scopes).toEqual(expect.arrayContaining([...needed]));
    expect(
      scopes.filter((scope) => !needed.has(scope)),
      'scopes nothing in the code needs',
    ).toEqual([]);
    expect(new Set(scopes).size).toBe(scopes.length);
  });

  it('declares every slash command the code handles, unescaped', () => {
    const declared = manifest.features.slash_commands ?? [];
    for (const command of commands.keys()) {
      const entry = declared.find((candidate) => candidate.command === command);
      expect(entry, `${command} in features.slash_commands`).toBeDefined();
      expect(entry?.description.length).toBeGreaterThan(0);
      // Arguments (account names, emails) are parsed as typed: Slack must not rewrite them.
      expect(entry?.should_escape).toBe(false);
    }
    expect(declared.map((entry) => entry.command).sort()).toEqual([...commands.keys()].sort());
  });

  it("names every /agent subcommand's first word in the usage hint Slack shows while typing", () => {
    const hint = manifest.features.slash_commands?.find((entry) => entry.command === '/agent')?.usage_hint;
    const words = new Set(HELP_ENTRIES.map((entry) => entry.usage.split(' ')[1] as string));
    expect(words).toContain('connections');
    for (const word of words) expect(hint, `${word} in the /agent usage_hint`).toContain(word);
  });

  it('points every request URL at POST /slack/events (HTTP mode)', () => {
    const urls = [
      manifest.settings.event_subscriptions.request_url,
      manifest.settings.interactivity?.request_url,
      ...(manifest.features.slash_commands ?? []).map((entry) => entry.url),
    ];
    for (const url of urls) expect(url).toMatch(/^https:\/\/[^/]+\/slack\/events$/);
    expect(manifest.settings.interactivity?.is_enabled).toBe(true);
    expect(manifest.settings.socket_mode_enabled).toBe(false);
    // The receiver serves that path (src/slack/app.ts).
    const app = sources.find((file) => file.path.replace(/\\/g, '/') === 'slack/app.ts')?.text ?? '';
    expect(app).toContain("endpoints: '/slack/events'");
  });

  it('stays within Slack limits for the app, the bot user and the agent view', () => {
    expect([1, 2]).toContain(manifest._metadata?.major_version);
    expect(manifest.display_information.name.length).toBeLessThanOrEqual(35);
    expect(manifest.display_information.description?.length ?? 0).toBeLessThanOrEqual(140);
    expect(manifest.features.bot_user?.display_name).toMatch(/^[a-z0-9._-]{1,80}$/);
    // The install success page tells people to `/invite @` this name.
    expect(manifest.features.bot_user?.display_name).toBe(BOT_DISPLAY_NAME);
    expect(renderInstalledPage({ name: 'Acme', orgWide: false })).toContain(`/invite @${BOT_DISPLAY_NAME}`);
    expect(manifest.features.app_home).toMatchObject({
      messages_tab_enabled: true,
      messages_tab_read_only_enabled: false,
    });
    // The bot publishes a Home tab (src/home/app-home.ts): Slack shows it only when enabled.
    const publishes = [...(calledMethods.get('views.publish') ?? [])];
    expect(publishes, 'views.publish in the source').not.toEqual([]);
    expect(manifest.features.app_home?.home_tab_enabled).toBe(true);
    // agent_view is Slack's surface for AI apps; the older assistant_view is closed to new apps.
    expect(manifest.features.assistant_view).toBeUndefined();
    const agentView = manifest.features.agent_view;
    expect(agentView?.agent_description?.length ?? 0).toBeGreaterThan(0);
    expect(agentView?.agent_description?.length ?? 0).toBeLessThanOrEqual(300);
    // SUGGESTED_PROMPTS defaults to the manifest's prompts: the two must not drift apart.
    expect(agentView?.suggested_prompts).toEqual(DEFAULT_SUGGESTED_PROMPTS);
    const prompts = agentView?.suggested_prompts ?? [];
    expect(prompts.length).toBeLessThanOrEqual(4);
    for (const prompt of prompts) {
      expect(Object.keys(prompt).sort()).toEqual(['message', 'title']);
      expect(prompt.title.length).toBeGreaterThan(0);
      expect(prompt.message.length).toBeGreaterThan(0);
    }
  });
});
