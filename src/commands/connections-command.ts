import type { ConnectionRow, RemoveResult } from '../connections/connection-admin.js';
import { aliasProblem } from '../connections/connection-alias.js';
import { expectCount } from './command-words.js';
import { helpLine, type ServiceFailure, type Subcommand, serviceFailure, UsageError } from './subcommand.js';

type ConnectionsCommand =
  | { kind: 'connections' }
  | { kind: 'connections-add' }
  | { kind: 'connections-remove'; alias: string };

export type ConnectionsOutcome =
  | { kind: 'connections'; rows: ConnectionRow[] }
  | { kind: 'connection-form'; opened: true }
  | ({ kind: 'connection-form'; opened: false } & ServiceFailure)
  /** Adding without STATE_ENCRYPTION_KEY: refused, nothing opened or kept. */
  | { kind: 'connections-no-key' }
  | { kind: 'connection-remove'; result: RemoveResult };

/** `/agent connections …` (DESIGN "Many accounts"): adding only opens a form, and only with a key to seal tokens. */
export const connectionsCommand: Subcommand<ConnectionsCommand, ConnectionsOutcome> = {
  words: ['connections', 'connection'],
  help: [
    helpLine(
      'connections',
      '/agent connections',
      'List the service connections: alias, account, region and health (each checked with /v2/whoami now).',
    ),
    helpLine(
      'connections-add',
      '/agent connections add',
      'Add a service connection in a form: alias, region address and API token (never typed into a command). The token is checked with /v2/whoami and kept encrypted; needs STATE_ENCRYPTION_KEY.',
    ),
    helpLine(
      'connections-remove',
      '/agent connections remove <alias>',
      'Remove a service connection; refused while a channel uses it.',
      { example: '/agent connections remove eu-prod' },
    ),
  ],
  unclosedQuote: 'connections',
  parse([verb, ...rest]) {
    switch (verb?.toLowerCase()) {
      case undefined:
        return { kind: 'connections' };
      case 'add':
        // Whatever follows is refused without being repeated: a token typed there would be in Slack's history.
        if (rest.length > 0)
          throw new UsageError(
            'connections-add',
            'nothing goes after `add`: the alias, address and token go in the form it opens (never type a token into a command)',
          );
        return { kind: 'connections-add' };
      case 'remove': {
        expectCount('connections-remove', rest, 1, 1);
        const alias = rest[0] ?? '';
        const wrong = aliasProblem(alias);
        if (wrong) throw new UsageError('connections-remove', wrong);
        return { kind: 'connections-remove', alias };
      }
      default:
        throw new UsageError('connections', 'unknown connections command (use `add` or `remove <alias>`)');
    }
  },
  async run(command, _invoker, context) {
    const { connections, openConnectionForm, tenant } = context;
    if (!connections || !openConnectionForm) return { kind: 'help' };
    switch (command.kind) {
      case 'connections':
        return { kind: 'connections', rows: await connections.list(tenant) };
      case 'connections-add':
        if (!connections.canAdd()) return { kind: 'connections-no-key' };
        try {
          await openConnectionForm();
          return { kind: 'connection-form', opened: true };
        } catch (error) {
          return { kind: 'connection-form', opened: false, ...serviceFailure(context, error, command.kind) };
        }
      case 'connections-remove':
        return { kind: 'connection-remove', result: await connections.remove(command.alias, tenant) };
    }
  },
  auditFields: (outcome) =>
    outcome.kind !== 'connection-remove'
      ? {}
      : outcome.result.outcome === 'in-use'
        ? { removal: outcome.result.outcome, channels: outcome.result.channels }
        : { removal: outcome.result.outcome },
  result(outcome) {
    if (outcome.kind === 'connections-no-key') return 'refused';
    if (outcome.kind === 'connection-remove') return outcome.result.outcome === 'removed' ? 'ok' : 'refused';
    return outcome.kind === 'connection-form' && !outcome.opened ? 'failed' : 'ok';
  },
  changesAdminHome: (outcome) => outcome.kind === 'connection-remove' && outcome.result.outcome === 'removed',
};
