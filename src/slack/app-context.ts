import type { ViewedPlace } from '../conversation/viewed-context.js';

/**
 * `app_context` on `app_context_changed`, `message.im` and `app_home_opened` (@slack/types 3.2):
 * the entities the person views, in order, each typed and tagged with its workspace.
 */
export interface SlackAppContext {
  entities?: Array<{ type?: string; value?: unknown; team_id?: string | undefined }> | undefined;
}

const CHANNEL = 'slack#/types/channel_id';
const MESSAGE = 'slack#/types/message_context';

/**
 * The place the person views, for a question asked meanwhile: a message (its thread) before a
 * channel; only places of the app's own workspace; canvases and lists give none.
 */
export function viewedPlaceOf(context: SlackAppContext | undefined, teamId: string): ViewedPlace | undefined {
  const ours = (context?.entities ?? []).filter((entity) => !entity.team_id || entity.team_id === teamId);
  for (const entity of ours) {
    if (entity.type !== MESSAGE) continue;
    const value = entity.value as { channel_id?: unknown; message_ts?: unknown } | undefined;
    if (typeof value?.channel_id === 'string' && typeof value.message_ts === 'string') {
      return { channel: value.channel_id, threadTs: value.message_ts };
    }
  }
  const channel = ours.find((entity) => entity.type === CHANNEL && typeof entity.value === 'string');
  return channel ? { channel: channel.value as string } : undefined;
}
