import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import { type AlertInvestigations, type WatchedMessage, watchedAlert } from '../../../alerts/index.js';
import { tenantOf } from '../../event-tenant.js';
import type { MessagePorts } from './message.js';

type Args = SlackEventMiddlewareArgs<'message'> & AllMiddlewareArgs;

/** Integration posts in watched channels → alert investigations (DESIGN "Alert investigations"). */
export interface WatchedChannelPorts extends Pick<MessagePorts, 'identity' | 'allowedChannelIds' | 'logger'> {
  alerts?: Pick<AlertInvestigations, 'intake' | 'watched'> | undefined;
}

export function watchedChannelListener(deps: WatchedChannelPorts) {
  const { identity, allowedChannelIds: allowlist, logger, alerts } = deps;
  return async ({ event, context }: Args): Promise<void> => {
    if (!alerts) return;
    const message = event as unknown as WatchedMessage;
    const verdict = watchedAlert(message, { botId: identity.botId, botUserId: identity.botUserId });
    if (verdict.kind === 'skip' && verdict.reason !== 'recovery') return;
    if (allowlist.length > 0 && !allowlist.includes(message.channel)) return;
    try {
      // The watch is this installation's own: another one watching the shared channel has its own.
      const tenant = tenantOf(context);
      if (!(await alerts.watched.watchOf(tenant, message.channel))) return;
      if (verdict.kind === 'skip') {
        logger.info(
          { channel: message.channel, ts: message.ts },
          'recovery in a watched channel: not investigated',
        );
        return;
      }
      const { alert, eventKey, cooldownText } = verdict;
      await alerts.intake.receive(alert, {
        tenant,
        channel: message.channel,
        source: 'channel',
        postedTs: message.ts,
        eventKey,
        cooldownText,
      });
    } catch (error) {
      logger.error({ err: error, channel: message.channel, ts: message.ts }, 'watched-channel alert failed');
    }
  };
}
