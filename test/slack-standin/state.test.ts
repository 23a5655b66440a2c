import { describe, expect, it } from 'vitest';
import { visibleText } from '../../dev/slack-standin/index.js';
import { slackError, useStandin } from './standin-fixture.js';

const ctx = useStandin();

describe('ephemerals, reactions, users, DMs, statuses, response URLs', () => {
  it('keeps ephemerals apart from the channel and per user', async () => {
    const r = await ctx.client.chat.postEphemeral({
      channel: 'C1',
      user: 'UALICE',
      text: 'only you',
      thread_ts: '1.1',
    });
    expect(r.message_ts).toMatch(/^\d+\.\d{6}$/);
    expect(ctx.standin.ephemerals('C1', 'UALICE')).toMatchObject([{ text: 'only you', thread_ts: '1.1' }]);
    expect(ctx.standin.ephemerals('C1', 'UBOB')).toEqual([]);
    expect(ctx.standin.messages('C1')).toEqual([]);
  });

  it('stores reactions and answers already_reacted / no_reaction', async () => {
    const m = await ctx.client.chat.postMessage({ channel: 'C1', text: 'answer' });
    const ts = m.ts ?? '';
    await ctx.client.reactions.add({ channel: 'C1', timestamp: ts, name: 'eyes' });
    ctx.standin.addUserReaction('C1', ts, 'eyes', 'UALICE');
    expect(await slackError(ctx.client.reactions.add({ channel: 'C1', timestamp: ts, name: 'eyes' }))).toBe(
      'already_reacted',
    );
    expect(ctx.standin.reactionsOn('C1', ts)).toEqual([
      { name: 'eyes', users: ['UBOT', 'UALICE'], count: 2 },
    ]);
    await ctx.client.reactions.remove({ channel: 'C1', timestamp: ts, name: 'eyes' });
    expect(
      await slackError(ctx.client.reactions.remove({ channel: 'C1', timestamp: ts, name: 'eyes' })),
    ).toBe('no_reaction');
    expect(ctx.standin.messages('C1')[0]?.reactions).toEqual([{ name: 'eyes', users: ['UALICE'], count: 1 }]);
  });

  it('answers users.info from the user table', async () => {
    const admin = await ctx.client.users.info({ user: 'UADMIN' });
    expect(admin.user).toMatchObject({
      id: 'UADMIN',
      is_admin: true,
      is_owner: false,
      team_id: ctx.standin.teamId,
    });
    expect((await ctx.client.users.info({ user: 'UOWNER' })).user).toMatchObject({ is_owner: true });
    expect((await ctx.client.users.info({ user: 'UALICE' })).user).toMatchObject({
      is_admin: false,
      is_bot: false,
    });
    expect(await slackError(ctx.client.users.info({ user: 'UNOBODY' }))).toBe('user_not_found');
    ctx.standin.addUser({ id: 'UNEW', is_admin: true });
    expect((await ctx.client.users.info({ user: 'UNEW' })).user).toMatchObject({ is_admin: true });
  });

  it('answers users.info for people of other workspaces and Grid orgs, as Slack shapes them', async () => {
    ctx.standin.addUser({ id: 'WGRID', team_id: 'T0SIBLING', enterprise_id: 'E0ORG', tz: 'Asia/Tokyo' });
    expect((await ctx.client.users.info({ user: 'WGRID' })).user).toMatchObject({
      team_id: 'T0SIBLING',
      tz: 'Asia/Tokyo',
      enterprise_user: { id: 'WGRID', enterprise_id: 'E0ORG', teams: ['T0SIBLING'] },
    });
    const outsider = (await ctx.client.users.info({ user: 'UEXTERNAL' })).user;
    expect(outsider).toMatchObject({ team_id: 'T0OTHERORG' });
    expect(outsider).not.toHaveProperty('enterprise_user');
    expect(outsider).not.toHaveProperty('enterprise_id');
  });

  it('opens one DM channel per user', async () => {
    const a = await ctx.client.conversations.open({ users: 'UALICE' });
    const again = await ctx.client.conversations.open({ users: 'UALICE' });
    const b = await ctx.client.conversations.open({ users: 'UBOB' });
    expect(a.channel?.id).toMatch(/^D/);
    expect(again.channel?.id).toBe(a.channel?.id);
    expect(b.channel?.id).not.toBe(a.channel?.id);
  });

  it('records assistant statuses and suggested prompts', async () => {
    await ctx.client.assistant.threads.setStatus({
      channel_id: 'D1',
      thread_ts: '1.1',
      status: 'is thinking…',
    });
    await ctx.client.assistant.threads.setStatus({ channel_id: 'D1', thread_ts: '1.1', status: '' });
    await ctx.client.assistant.threads.setSuggestedPrompts({
      channel_id: 'D1',
      prompts: [{ title: 'Errors', message: 'Any errors today?' }],
    });
    expect(ctx.standin.statuses('D1', '1.1')).toEqual(['is thinking…', '']);
    expect(ctx.standin.suggestedPrompts('D1')).toEqual([{ title: 'Errors', message: 'Any errors today?' }]);
  });

  it('stores what is POSTed to a response URL', async () => {
    const url = ctx.standin.responseUrl('cmd-1');
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'help text', response_type: 'ephemeral' }),
    });
    expect(response.status).toBe(200);
    expect(ctx.standin.responses('cmd-1')).toEqual([{ text: 'help text', response_type: 'ephemeral' }]);
  });

  it('waitFor resolves when the state matches and names what it waited for on timeout', async () => {
    const waiting = ctx.standin.waitFor(() => ctx.standin.messages('C9').find((m) => m.text === 'later'));
    setTimeout(() => void ctx.client.chat.postMessage({ channel: 'C9', text: 'later' }), 30);
    expect((await waiting).text).toBe('later');
    await expect(ctx.standin.waitFor(() => false, { timeoutMs: 50, description: 'nothing' })).rejects.toThrow(
      /nothing/,
    );
  });
});

describe('visibleText', () => {
  it('reads markdown, section, header and context blocks, else the fallback text', () => {
    expect(visibleText({ text: 'fallback' })).toBe('fallback');
    expect(
      visibleText({
        text: 'fallback',
        blocks: [
          { type: 'header', text: { type: 'plain_text', text: 'Title' } },
          { type: 'markdown', text: '**bold**' },
          {
            type: 'section',
            text: { type: 'mrkdwn', text: 'sec' },
            fields: [{ type: 'mrkdwn', text: 'f1' }],
          },
          { type: 'divider' },
          { type: 'context', elements: [{ type: 'mrkdwn', text: 'ctx' }] },
        ],
      }),
    ).toBe('Title\n**bold**\nsec\nf1\nctx');
    expect(visibleText({ text: 'fallback', blocks: [{ type: 'divider' }] })).toBe('fallback');
  });
});
