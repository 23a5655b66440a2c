import { parseMessageContent } from '../limits.js';
import { nextSlackTs } from '../ts-clock.js';
import type { StoredMessage } from '../types.js';
import { bool, channelProblem, type MethodHandler, publicMessage, str } from './context.js';

/** chat.postMessage: stores a bot message after Slack's channel and content checks. */
export const postMessage: MethodHandler = (args, { state }) => {
  const channel = str(args.channel);
  const problem = channelProblem(state, channel);
  if (problem || !channel) return problem ?? { ok: false, error: 'channel_not_found' };
  const content = parseMessageContent(args);
  if (!content.ok) return content.result;
  const { teamId, botUserId, botId, appId } = state.identity;
  const threadTs = str(args.thread_ts);
  const message: StoredMessage = {
    type: 'message',
    channel,
    ts: nextSlackTs(),
    user: botUserId,
    bot_id: botId,
    app_id: appId,
    team: teamId,
    text: content.text,
    ...(content.blocks ? { blocks: content.blocks } : {}),
    ...(content.metadata ? { metadata: content.metadata } : {}),
    ...(threadTs ? { thread_ts: threadTs } : {}),
    ...(threadTs && bool(args.reply_broadcast) ? { reply_broadcast: true, subtype: 'thread_broadcast' } : {}),
  };
  state.addMessage(message);
  return { ok: true, channel, ts: message.ts, message: publicMessage(message) };
};

/** chat.update: replaces text/blocks/metadata of one of the bot's own messages. */
export const update: MethodHandler = (args, { state }) => {
  const channel = str(args.channel);
  const problem = channelProblem(state, channel);
  if (problem || !channel) return problem ?? { ok: false, error: 'channel_not_found' };
  const message = state.findMessage(channel, str(args.ts) ?? '');
  if (!message) return { ok: false, error: 'message_not_found' };
  if (message.user !== state.identity.botUserId) return { ok: false, error: 'cant_update_message' };
  const content = parseMessageContent(args, false);
  if (!content.ok) return content.result;
  if (args.text !== undefined) message.text = content.text;
  if (args.blocks !== undefined) {
    if (content.blocks?.length) message.blocks = content.blocks;
    else delete message.blocks;
  }
  if (content.metadata) message.metadata = content.metadata;
  if (message.text.trim() === '' && !message.blocks?.length) return { ok: false, error: 'no_text' };
  message.edited = { user: state.identity.botUserId, ts: nextSlackTs() };
  state.touch();
  return { ok: true, channel, ts: message.ts, text: message.text, message: publicMessage(message) };
};

/** chat.delete: hides one of the bot's own messages from every view. */
export const deleteMessage: MethodHandler = (args, { state }) => {
  const channel = str(args.channel);
  const problem = channelProblem(state, channel);
  if (problem || !channel) return problem ?? { ok: false, error: 'channel_not_found' };
  const message = state.findMessage(channel, str(args.ts) ?? '');
  if (!message) return { ok: false, error: 'message_not_found' };
  if (message.user !== state.identity.botUserId) return { ok: false, error: 'cant_delete_message' };
  message.deleted = true;
  state.touch();
  return { ok: true, channel, ts: message.ts };
};

/** chat.postEphemeral: a message only `user` sees; never part of the channel history. */
export const postEphemeral: MethodHandler = (args, { state }) => {
  const channel = str(args.channel);
  const problem = channelProblem(state, channel);
  if (problem || !channel) return problem ?? { ok: false, error: 'channel_not_found' };
  const user = str(args.user);
  // Membership is not modelled: any user id counts as in the channel.
  if (!user) return { ok: false, error: 'user_not_in_channel' };
  const content = parseMessageContent(args);
  if (!content.ok) return content.result;
  const threadTs = str(args.thread_ts);
  const messageTs = nextSlackTs();
  state.ephemerals.push({
    channel,
    user,
    message_ts: messageTs,
    text: content.text,
    ...(content.blocks ? { blocks: content.blocks } : {}),
    ...(threadTs ? { thread_ts: threadTs } : {}),
  });
  state.touch();
  return { ok: true, message_ts: messageTs };
};

/**
 * chat.getPermalink: a message's link, `https://<workspace>.slack.com/archives/<channel>/p<ts
 * without the dot>` (a reply's carries `?thread_ts=`); `message_not_found` for a message it
 * does not know, as Slack answers.
 */
export const getPermalink: MethodHandler = (args, { state }) => {
  const channel = str(args.channel);
  const ts = str(args.message_ts);
  if (!channel || state.missingChannels.has(channel)) return { ok: false, error: 'channel_not_found' };
  const message = ts ? state.findMessage(channel, ts) : undefined;
  if (!message || !ts) return { ok: false, error: 'message_not_found' };
  const thread =
    message.thread_ts && message.thread_ts !== ts ? `?thread_ts=${message.thread_ts}&cid=${channel}` : '';
  return {
    ok: true,
    channel,
    permalink: `https://standin-workspace.slack.com/archives/${channel}/p${ts.replace('.', '')}${thread}`,
  };
};
