import type { ConnectionAdmin } from '../connections/connection-admin.js';
import type { Tenant } from '../conversation/tenancy.js';
import type { CommandOutcome, ServiceFailure } from './command-outcome.js';
import type { AgentCommand } from './parse-command.js';

type ConnectionsCommand = Extract<
  AgentCommand,
  { kind: 'connections' | 'connections-add' | 'connections-remove' }
>;

/** What the connections commands reach; the form is Slack's, opened through the port. */
export interface ConnectionsContext {
  connections: Pick<ConnectionAdmin, 'list' | 'remove' | 'canAdd'>;
  /** Opens the add form for the person who typed the command (views.open with its trigger_id). */
  openConnectionForm: () => Promise<void>;
  failure: (error: unknown) => ServiceFailure;
  /** The installation whose connections these are. */
  tenant: Tenant;
}

/**
 * `/agent connections …` (DESIGN "Many accounts"). Access is checked and audited by the caller.
 * Adding happens in a form: the command only opens it, and only when tokens can be kept encrypted.
 */
export async function runConnectionsCommand(
  command: ConnectionsCommand,
  context: ConnectionsContext,
): Promise<CommandOutcome> {
  switch (command.kind) {
    case 'connections':
      return { kind: 'connections', rows: await context.connections.list(context.tenant) };
    case 'connections-add':
      if (!context.connections.canAdd()) return { kind: 'connections-no-key' };
      try {
        await context.openConnectionForm();
        return { kind: 'connection-form', opened: true };
      } catch (error) {
        return { kind: 'connection-form', opened: false, ...context.failure(error) };
      }
    case 'connections-remove':
      return {
        kind: 'connection-remove',
        result: await context.connections.remove(command.alias, context.tenant),
      };
  }
}
