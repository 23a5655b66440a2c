import * as agents from './agents.js';
import * as assistant from './assistant.js';
import * as chat from './chat.js';
import type { MethodHandler } from './context.js';
import * as conversations from './conversations.js';
import * as files from './files.js';
import * as identity from './identity.js';
import * as reactions from './reactions.js';
import * as views from './views.js';

/** The Web API methods the stand-in answers with a bot token, by Slack method name. */
export const BOT_METHODS: Readonly<Record<string, MethodHandler>> = {
  'auth.test': identity.authTest,
  'users.info': identity.usersInfo,
  'chat.postMessage': chat.postMessage,
  'chat.update': chat.update,
  'chat.delete': chat.deleteMessage,
  'chat.postEphemeral': chat.postEphemeral,
  'chat.getPermalink': chat.getPermalink,
  'reactions.add': reactions.add,
  'reactions.remove': reactions.remove,
  'conversations.replies': conversations.replies,
  'conversations.open': conversations.open,
  'conversations.info': conversations.info,
  'conversations.members': conversations.members,
  'assistant.threads.setStatus': assistant.setStatus,
  'assistant.threads.setSuggestedPrompts': assistant.setSuggestedPrompts,
  'assistant.threads.setTitle': assistant.setTitle,
  'agents.sessions.setStatus': agents.sessionsSetStatus,
  'agents.sessions.rename': agents.sessionsRename,
  'views.open': views.open,
  'views.publish': views.publish,
  'views.push': views.push,
  'views.update': views.update,
  'files.getUploadURLExternal': files.getUploadURLExternal,
  'files.completeUploadExternal': files.completeUploadExternal,
};
