import type { Keyv } from 'keyv';
import type { AnswerChannel, AnswerChannelStore } from '../conversation/answer-channels/answer-channels.js';
import type { StoreKeys } from './keys.js';
import type { HomePrimitives } from './primitives.js';

/** The set of answer channels' ids, for App Home (beside the bound and watched channels' sets). */
export const ANSWER_CHANNELS_LISTED = 'answer-channel:listed';

/**
 * Answer channels (`/agent channel answer-all on|off`) on either backend: one record per channel
 * through keyv (no expiry: an admin turns it off) and a listed set through the home primitives.
 */
export function createAnswerChannelRecords(
  keyv: Keyv,
  homePrimitives: HomePrimitives,
  keys: StoreKeys,
): AnswerChannelStore {
  return {
    async getAnswerChannel(channel) {
      return keyv.get<AnswerChannel>(keys.answerChannel(channel));
    },
    async saveAnswerChannel(channel, setting) {
      await keyv.set(keys.answerChannel(channel), setting);
      await homePrimitives.addMember(ANSWER_CHANNELS_LISTED, channel);
    },
    async deleteAnswerChannel(channel) {
      await keyv.delete(keys.answerChannel(channel));
      await homePrimitives.removeMember(ANSWER_CHANNELS_LISTED, channel);
    },
    async listAnswerChannels() {
      return (await homePrimitives.members(ANSWER_CHANNELS_LISTED)).sort();
    },
  };
}
