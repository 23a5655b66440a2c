import type { WebClient } from '@slack/web-api';
import type { SendFilesToUser } from '../../../commands/command-context.js';
import { openDm } from '../../web-client.js';

/** The command layer's upload port: the files go into the bot's DM with `userId`, private to that person. */
export function slackDmUploader(client: WebClient): SendFilesToUser {
  return async (userId, files, comment) => {
    await client.filesUploadV2({
      channel_id: await openDm(client, userId),
      initial_comment: comment,
      file_uploads: files.map((file) => ({
        file: Buffer.from(file.content, 'utf8'),
        filename: file.filename,
        title: file.filename,
      })),
    });
  };
}
