import { bool, type MethodHandler, publicMessage, str } from './context.js';

const DEFAULT_REPLIES_LIMIT = 1000;

function decodeCursor(cursor: string | undefined): number {
  if (!cursor) return 0;
  const match = /^offset:(\d+)$/.exec(Buffer.from(cursor, 'base64').toString('utf8'));
  return match ? Number(match[1]) : -1;
}

/**
 * conversations.replies: the thread, parent first, with metadata and reactions. Slack answers
 * thread_not_found when it knows no such message; when the parent was never recorded in the stand-in
 * (a person's message a test did not register) but the bot has replied under it, the replies are
 * returned on their own so tests need not register every parent.
 */
export const replies: MethodHandler = (args, { state }) => {
  const channel = str(args.channel);
  if (!channel || state.missingChannels.has(channel)) return { ok: false, error: 'channel_not_found' };
  const ts = str(args.ts) ?? '';
  const anchor = state.findMessage(channel, ts);
  const rootTs = anchor?.thread_ts ?? ts;
  const thread = state.thread(channel, rootTs);
  if (thread.length === 0) return { ok: false, error: 'thread_not_found' };
  const offset = decodeCursor(str(args.cursor));
  if (offset < 0) return { ok: false, error: 'invalid_cursor' };
  const limit = Math.max(1, Number(str(args.limit) ?? DEFAULT_REPLIES_LIMIT) || DEFAULT_REPLIES_LIMIT);
  const page = thread.slice(offset, offset + limit);
  const hasMore = offset + limit < thread.length;
  const rootReplies = thread.filter((m) => m.ts !== rootTs);
  const messages = page.map((m) => {
    const out = publicMessage(m);
    if (m.ts === rootTs) {
      out.thread_ts = rootTs;
      out.reply_count = rootReplies.length;
      out.reply_users = [...new Set(rootReplies.map((r) => r.user || r.bot_id))];
      if (rootReplies.length > 0) out.latest_reply = rootReplies[rootReplies.length - 1]?.ts;
    }
    return out;
  });
  return {
    ok: true,
    messages,
    has_more: hasMore,
    response_metadata: {
      next_cursor: hasMore ? Buffer.from(`offset:${offset + limit}`).toString('base64') : '',
    },
  };
};

/** conversations.open with `users` (one id): the DM channel with that user. */
export const open: MethodHandler = (args, { state }) => {
  const users = str(args.users)?.split(',').filter(Boolean) ?? [];
  if (users.length === 0) return { ok: false, error: 'users_list_not_supplied' };
  if (users.length > 1) return { ok: false, error: 'not_implemented', detail: 'multi-person DMs' };
  const user = users[0] ?? '';
  if (!state.users.has(user)) return { ok: false, error: 'user_not_found' };
  const id = state.dmChannelFor(user);
  return { ok: true, channel: { id, is_im: true, user } };
};

/**
 * conversations.info, shaped like Slack's: the kind flags, the sharing flags, and `num_members`
 * only when asked for with `include_num_members` (Slack leaves it out otherwise). A private channel
 * the bot is not in is `channel_not_found`, as on Slack.
 */
export const info: MethodHandler = (args, { state }) => {
  const id = str(args.channel);
  if (!id || state.missingChannels.has(id)) return { ok: false, error: 'channel_not_found' };
  const conversation = state.conversation(id);
  if (id.startsWith('D')) {
    const user = conversation.members.find((member) => member !== state.identity.botUserId);
    return {
      ok: true,
      channel: {
        id,
        created: 1_700_000_000,
        is_im: true,
        is_org_shared: false,
        user,
        is_user_deleted: false,
      },
    };
  }
  const isMpim = conversation.is_mpim === true;
  const isPrivate = isMpim || conversation.is_private === true || id.startsWith('G');
  if (isPrivate && state.notInChannel.has(id)) return { ok: false, error: 'channel_not_found' };
  const extShared = conversation.is_ext_shared === true;
  const orgShared = conversation.is_org_shared === true;
  return {
    ok: true,
    channel: {
      id,
      name: conversation.name ?? (isMpim ? `mpdm-${conversation.members.join('--')}-1` : id.toLowerCase()),
      is_channel: !isPrivate,
      is_group: isPrivate && !isMpim,
      is_im: false,
      is_mpim: isMpim,
      is_private: isPrivate,
      created: 1_700_000_000,
      is_archived: false,
      is_general: false,
      is_shared: extShared || orgShared,
      is_ext_shared: extShared,
      is_org_shared: orgShared,
      is_pending_ext_shared: conversation.is_pending_ext_shared === true,
      pending_shared: [],
      context_team_id: state.identity.teamId,
      shared_team_ids: [state.identity.teamId],
      is_member: !state.notInChannel.has(id),
      ...(bool(args.include_num_members) ? { num_members: conversation.members.length } : {}),
    },
  };
};

/** conversations.members: member ids, paged with Slack's cursor (limit 1–1,000, default 100). */
export const members: MethodHandler = (args, { state }) => {
  const id = str(args.channel);
  if (!id || state.missingChannels.has(id)) return { ok: false, error: 'channel_not_found' };
  const limit = Number(str(args.limit) ?? 100);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) return { ok: false, error: 'invalid_limit' };
  const offset = decodeCursor(str(args.cursor));
  if (offset < 0) return { ok: false, error: 'invalid_cursor' };
  const all = state.conversation(id).members;
  const hasMore = offset + limit < all.length;
  return {
    ok: true,
    members: all.slice(offset, offset + limit),
    response_metadata: {
      next_cursor: hasMore ? Buffer.from(`offset:${offset + limit}`).toString('base64') : '',
    },
  };
};
