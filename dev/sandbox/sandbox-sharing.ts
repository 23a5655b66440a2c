import type { OutsiderPolicy } from '../../src/conversation/access/answer-place.js';
import {
  channelSharedEvent,
  channelUnsharedEvent,
  defaultUsers,
  type SlackStandin,
  type StandinConversation,
} from '../slack-standin/index.js';
import type { SeenView } from './render-terminal.js';
import type { SandboxThread } from './sandbox-session.js';
import { SANDBOX_CHANNEL, SANDBOX_NAMES, SANDBOX_USER } from './sandbox-stack.js';
import type { ThreadRef } from './thread-monitor.js';

/** The person of another organisation `/shared` lets into #sandbox (in the stand-in's default table). */
export const SANDBOX_OUTSIDER = {
  id: 'UEXTERNAL',
  name: 'ext',
  realName: 'Eve External',
  teamId: 'T0OTHERORG',
};

const POLICIES: readonly OutsiderPolicy[] = ['dm', 'thread', 'refuse'];

/** #sandbox as Slack Connect: the workspace's own people, you, the bot, and one person of another organisation. */
function sharedChannel(slack: Pick<SlackStandin, 'teamId' | 'botUserId'>): StandinConversation {
  const insiders = defaultUsers(slack.teamId, slack.botUserId)
    .filter(
      (user) =>
        user.team_id === slack.teamId &&
        !user.is_restricted &&
        !user.is_ultra_restricted &&
        !user.is_stranger,
    )
    .map((user) => user.id);
  return {
    id: SANDBOX_CHANNEL.id,
    name: SANDBOX_CHANNEL.name,
    is_ext_shared: true,
    members: [...insiders, SANDBOX_USER.id, SANDBOX_OUTSIDER.id],
  };
}

/**
 * Shares #sandbox with another organisation (or stops): the stand-in's `conversations.info` and
 * `conversations.members` change as an admin's click would change them, and the bot gets the event
 * Slack sends (`channel_shared` / `channel_unshared`), which drops what it knew about the channel.
 */
export async function setSandboxSharing(
  slack: SlackStandin,
  share: boolean,
  send: (event: Record<string, unknown>, what: string) => Promise<void>,
): Promise<void> {
  if (share) {
    slack.setConversation(sharedChannel(slack));
    await send(channelSharedEvent(SANDBOX_CHANNEL.id, SANDBOX_OUTSIDER.teamId), 'channel_shared');
  } else {
    slack.setConversation({ id: SANDBOX_CHANNEL.id, name: SANDBOX_CHANNEL.name });
    await send(channelUnsharedEvent(SANDBOX_CHANNEL.id, SANDBOX_OUTSIDER.teamId), 'channel_unshared');
  }
}

/** What `/shared` changed, and what the bot will do with the next question (docs/using-it.md "Who can read answers"). */
export function sharingLines(shared: boolean, policy: OutsiderPolicy, currentInDm: boolean): string {
  const channel = `#${SANDBOX_CHANNEL.name}`;
  if (!shared) {
    const stay = currentInDm
      ? ` Your current thread is still in your DM: /new starts one in ${channel}.`
      : '';
    return `${channel} is internal again (the bot got channel_unshared): it answers in the thread there.${stay}`;
  }
  const others = POLICIES.filter((other) => other !== policy).join('|');
  const does = {
    dm: 'the bot answers your next question there in your DM, and leaves one note in the thread',
    thread: 'the bot still answers in the thread, where the other organisation reads the answer',
    refuse: 'the bot answers no question there, and tells only you why',
  }[policy];
  return [
    `${channel} is now a Slack Connect channel: ${SANDBOX_OUTSIDER.realName} (@${SANDBOX_OUTSIDER.name}) of another organisation reads it (the bot got channel_shared).`,
    `With OUTSIDER_AUDIENCE=${policy} ${does}. To see the others: OUTSIDER_AUDIENCE=${others} npm run sandbox`,
  ].join('\n');
}

/**
 * How the chat names places: the person's DM always, #sandbox once it is shared (while it is
 * internal, the chat's own channel goes unsaid, as before `/shared` existed).
 */
export function sandboxView(dm: string, isShared: () => boolean): SeenView {
  return {
    placeOf(channel) {
      if (channel === dm) return 'your DM';
      if (channel !== SANDBOX_CHANNEL.id) return channel;
      return isShared() ? `#${SANDBOX_CHANNEL.name}` : undefined;
    },
    names: SANDBOX_NAMES,
  };
}

/**
 * The bot took `thread`'s turn to the DM thread `to`: the thread is that one from now on. A reply
 * can move too (the channel was shared mid-thread), and the DM thread may then be a new agent
 * session: it is found again by the moved question (`questionText`; see findSession).
 */
export function moveThread(thread: SandboxThread, to: ThreadRef, questionText: string | undefined): void {
  thread.firstText = (questionText ?? thread.firstText).replace(/^<@[A-Z0-9]+>\s*/, '');
  thread.sessionId = undefined;
  thread.channel = to.channel;
  thread.ts = to.ts;
}
