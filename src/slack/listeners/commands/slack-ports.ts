import type { WebClient } from '@slack/web-api';
import type { SendFilesToUser } from '../../../commands/export-command.js';

/**
 * The Slack side of the command layer's upload port: a private upload to a person (a DM from the
 * bot: `conversations.open` + `filesUploadV2`). Who is an admin comes from the user directory.
 */

/**
 * Uploads the files into the DM between the bot and `userId`: private to that person, unlike a
 * channel (https://docs.slack.dev/reference/methods/files.completeUploadExternal).
 */
export function slackDmUploader(client: WebClient): SendFilesToUser {
  return async (userId, files, comment) => {
    const opened = await client.conversations.open({ users: userId });
    const channelId = opened.channel?.id;
    if (!channelId) throw new Error('conversations.open returned no channel');
    await client.filesUploadV2({
      channel_id: channelId,
      initial_comment: comment,
      file_uploads: files.map((file) => ({
        file: Buffer.from(file.content, 'utf8'),
        filename: file.filename,
        title: file.filename,
      })),
    });
  };
}
