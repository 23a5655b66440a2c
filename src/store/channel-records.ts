import type { Keyv } from 'keyv';
import type { ChannelWatch, ChannelWatchStore } from '../alerts/alert-ports.js';
import type { Audience, AudienceCache } from '../conversation/access/audience.js';
import type { AnswerChannel, AnswerChannelStore } from '../conversation/answer-channels/answer-channels.js';
import type { ChannelBinding, ChannelBindingStore } from '../conversation/context/context-ports.js';
import type { ChannelConnectionIndex } from './connection-records.js';
import { homeKeys } from './home-records.js';
import type { StoreKeys } from './keys.js';
import { listedRecords } from './listed-records.js';
import type { HomePrimitives } from './primitives.js';

/** The set of answer channels' ids, for App Home (beside the bound and watched channels' sets). */
const ANSWER_CHANNELS_LISTED = 'answer-channel:listed';

/** What admins set on a channel (its agent, watch, answer-all), listed for App Home; and who reads it. */
export function createChannelRecords(
  keyv: Keyv,
  homePrimitives: HomePrimitives,
  keys: StoreKeys,
  { noteChannelConnection }: ChannelConnectionIndex,
): ChannelBindingStore & ChannelWatchStore & AnswerChannelStore & AudienceCache {
  const listed = listedRecords(keyv, homePrimitives);
  const bindings = listed<ChannelBinding>(keys.channelAgent, homeKeys.boundChannels);
  const watches = listed<ChannelWatch>(keys.channelWatch, homeKeys.watchedChannels);
  const answerChannels = listed<AnswerChannel>(keys.answerChannel, ANSWER_CHANNELS_LISTED);
  return {
    getChannelBinding: bindings.get,
    async saveChannelBinding(channel, binding) {
      await bindings.save(channel, binding);
      await noteChannelConnection(channel, binding.connection);
    },
    async deleteChannelBinding(channel) {
      await bindings.remove(channel);
      await noteChannelConnection(channel, undefined);
    },
    getChannelWatch: watches.get,
    saveChannelWatch: watches.save,
    deleteChannelWatch: watches.remove,
    getAnswerChannel: answerChannels.get,
    saveAnswerChannel: answerChannels.save,
    deleteAnswerChannel: answerChannels.remove,
    listAnswerChannels: answerChannels.list,
    // Who reads a conversation: kept briefly, dropped by any replica that hears it changed.
    getAudience: (channel) => keyv.get<Audience>(keys.audience(channel)),
    async saveAudience(channel, audience, ttlMs) {
      await keyv.set(keys.audience(channel), audience, ttlMs);
    },
    async forgetAudience(channel) {
      await keyv.delete(keys.audience(channel));
    },
  };
}
