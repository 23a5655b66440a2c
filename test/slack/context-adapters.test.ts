import { WebClient } from '@slack/web-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type SlackStandin, startSlackStandin, TEST_BOT_TOKEN } from '../../dev/slack-standin/index.js';
import { createSlackPeopleDirectory } from '../../src/slack/people-directory.js';
import { createSlackThreadReader } from '../../src/slack/thread-reader.js';
import { createUserDirectory, slackUsersInfo } from '../../src/slack/user-directory.js';

/** The context's Slack adapters against the stand-in: users.info and conversations.replies. */
let slack: SlackStandin;
let client: WebClient;
beforeEach(async () => {
  slack = await startSlackStandin();
  client = new WebClient(TEST_BOT_TOKEN, { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
});
afterEach(() => slack.close());

describe('people directory (over the one users.info directory)', () => {
  const directory = (now = () => 0) =>
    createSlackPeopleDirectory(createUserDirectory({ fetch: slackUsersInfo(client), now }));

  it('gives the display name and IANA zone, and asks Slack once per person', async () => {
    const people = directory();
    const [first, second] = await Promise.all([people.profile('UALICE'), people.profile('UALICE')]);
    expect(first).toEqual({ name: 'alice', tz: 'America/New_York' });
    expect(second).toEqual(first);
    expect(await people.profile('UALICE')).toEqual(first);
    expect(slack.callCount('users.info')).toBe(1);
  });

  it("gives nothing for an unknown user or a failed look-up (asked again later), and keeps a deleted user's name", async () => {
    const people = directory();
    expect(await people.profile('UNOBODY')).toBeUndefined();
    slack.failNext('users.info', 'ratelimited');
    expect(await people.profile('UBOB')).toBeUndefined();
    expect(await people.profile('UBOB')).toEqual({ name: 'bob', tz: 'Europe/Berlin' });
    slack.addUser({ id: 'UGONE', name: 'gone', deleted: true });
    expect((await people.profile('UGONE'))?.name).toBe('gone');
  });
});

describe('thread reader (conversations.replies)', () => {
  it('pages through a thread with cursors, root first', async () => {
    const root = slack.recordUserMessage({ channel: 'C1', user: 'UBOB', text: 'root' });
    for (let index = 0; index < 450; index += 1) {
      slack.recordUserMessage({ channel: 'C1', user: 'UALICE', text: `r${index}`, thread_ts: root.ts });
    }
    const read = await createSlackThreadReader(client).read({ channel: 'C1', threadTs: root.ts });
    expect(read.truncated).toBe(false);
    expect(read.messages).toHaveLength(451);
    expect(read.messages[0]?.text).toBe('root');
    expect(read.messages.at(-1)?.text).toBe('r449');
    expect(slack.callCount('conversations.replies')).toBe(3);
  });

  it('stops after ten pages of a very long thread and says so', async () => {
    const root = slack.recordUserMessage({ channel: 'C1', user: 'UBOB', text: 'root' });
    for (let index = 0; index < 2100; index += 1) {
      slack.recordUserMessage({ channel: 'C1', user: 'UALICE', text: `r${index}`, thread_ts: root.ts });
    }
    const read = await createSlackThreadReader(client).read({ channel: 'C1', threadTs: root.ts });
    expect(read.truncated).toBe(true);
    expect(read.messages).toHaveLength(2000);
    expect(read.messages[0]?.reply_count).toBe(2100);
  });

  it("passes Slack's error on (the caller runs the turn without context)", async () => {
    slack.setNotInChannel('C2');
    slack.failNext('conversations.replies', 'not_in_channel');
    await expect(
      createSlackThreadReader(client).read({ channel: 'C2', threadTs: '1.000001' }),
    ).rejects.toMatchObject({
      data: { error: 'not_in_channel' },
    });
  });
});
