import type { MessageFile, SlackPostResult } from '../slack-standin/index.js';
import type { OnRecorded, PersonDriver, Where } from '../slack-standin/person.js';

/** How a line is posted: with a mention of the bot or without, with files or none. */
export interface PostStyle {
  mention: boolean;
  files: readonly MessageFile[];
}

/**
 * The person's post as Slack delivers it: a mention as `app_mention` and `message` both, a plain
 * line as `message`, files on a `file_share` message. Returns each event's ack with its name.
 */
export async function postAsPerson(
  person: PersonDriver,
  text: string,
  where: Where,
  style: PostStyle,
  onRecorded: OnRecorded,
): Promise<Array<{ ack: SlackPostResult; what: string }>> {
  const named = (acks: SlackPostResult[]) =>
    acks.map((ack, index) => ({ ack, what: style.mention && index === 0 ? 'app_mention' : 'a message' }));
  if (style.files.length > 0) {
    const files = [...style.files];
    const sent = await person.share(text, files, where, { mention: style.mention, onRecorded });
    return named(sent.responses);
  }
  if (style.mention) return named((await person.mention(text, where, onRecorded)).responses);
  return named([(await person.reply(text, where, onRecorded)).response]);
}
