import type { AllMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from '@slack/bolt';
import type { AdminCheck } from '../../../commands/access.js';
import type { ServiceConnections } from '../../../connections/service-connections.js';
import type { InsideCheck } from '../../../conversation/access/who-is-inside.js';
import type { AppHome } from '../../../home/app-home.js';
import type { Logger } from '../../../runtime/logger.js';
import { tenantOf } from '../../event-tenant.js';
import { personOfInteraction } from '../../payload-person.js';
import {
  ADMINS_ONLY_FORM,
  CONNECTION_BLOCKS,
  readConnectionForm,
  renderAddAnswer,
} from '../../views/connection-form.js';

type Args = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

/**
 * The add-connection form submitted → checked (who, the fields, whoami with the token) and answered
 * in the ack, within Slack's 3 seconds. Audited like the admin commands; the token is never logged.
 */
export interface ConnectionFormPorts {
  inside: InsideCheck;
  /** Absent in narrow tests: the form is refused. */
  connections?: Pick<ServiceConnections, 'admin'> | undefined;
  appHome?: Pick<AppHome, 'settingsChanged'> | undefined;
  logger: Logger;
}

export function connectionFormListener(deps: ConnectionFormPorts, access: AdminCheck) {
  return async ({ ack, body, view, context }: Args): Promise<void> => {
    const userId = body.user.id;
    const tenant = tenantOf(context);
    const audit = (fields: Record<string, unknown>) =>
      deps.logger.info(
        { audit: true, user: userId, subcommand: 'connections-add', ...fields },
        'admin command',
      );
    const verdict = await deps.inside.check(personOfInteraction(body));
    if (!deps.connections || !verdict.inside || !(await access.isAdmin(userId, tenant))) {
      audit({ result: 'refused', outcome: 'refused' });
      await ack({ response_action: 'errors', errors: { [CONNECTION_BLOCKS.alias]: ADMINS_ONLY_FORM } });
      return;
    }
    const input = readConnectionForm(view.state.values);
    const result = await deps.connections.admin.add(input, userId, tenant);
    audit({
      connection: input.alias.trim().slice(0, 40),
      result: result.ok ? 'ok' : result.reason === 'check-failed' ? 'failed' : 'refused',
      outcome: result.ok ? 'connection-added' : result.reason,
      ...(result.ok ? { accountId: result.accountId } : {}),
      ...(!result.ok && result.reason !== 'no-key' ? { field: result.field } : {}),
      ...(!result.ok && result.reason === 'check-failed'
        ? { problem: result.problem, referenceId: result.referenceId }
        : {}),
    });
    await ack(renderAddAnswer(result));
    if (result.ok) deps.appHome?.settingsChanged(tenant, userId);
  };
}
