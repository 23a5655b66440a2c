import type { SavedObjectType, SubAccount } from '../agent-api/index.js';
import type { CapacityMoveError, CapacityMoveResult } from '../capacity/index.js';
import type { ConnectionRow, RemoveResult } from '../connections/connection-admin.js';
import type { ListedSchedule, Schedule } from '../conversation/schedules/schedules.js';
import type { Logger } from '../runtime/logger.js';

/**
 * What running an `/agent` subcommand produced, as data. slack/views/command-replies.ts turns it
 * into the ephemeral reply; nothing here knows Block Kit.
 */

/** A service failure, with the reference id that is also in the log line. */
export interface ServiceFailure {
  error: unknown;
  referenceId: string;
}

/** One exported type, as uploaded. */
export interface ExportedFile {
  type: SavedObjectType;
  filename: string;
  /** The response text exactly as the service served it. */
  content: string;
  /** Saved objects in it (`hits.length`). */
  count: number;
}

/** Why whoami failed, in the terms the issue asks for. */
export type WhoamiProblem = 'invalid-token' | 'wrong-address' | 'service';

export type CommandOutcome =
  | { kind: 'help'; unknown?: string | undefined }
  | { kind: 'usage'; problem: string; usage: string }
  /** A non-admin asked for an admin command; nothing was called on the service. */
  | { kind: 'refused'; usage: string }
  /** An account command without ACCOUNT_API_TOKEN. */
  | { kind: 'not-configured'; usage: string }
  | { kind: 'whoami'; accountId: number; accountName: string }
  | ({
      kind: 'whoami-failed';
      problem: WhoamiProblem;
      status?: number | undefined;
      serviceMessage?: string | undefined;
    } & ServiceFailure)
  /** `active` is what the service returned, which may differ from what was asked. */
  | { kind: 'agent-state'; agentId: string; requested: boolean; active: boolean }
  | { kind: 'accounts'; accounts: SubAccount[] }
  | {
      kind: 'account-created';
      /** Undefined when the service answered `{}` (its spec makes every member optional). */
      accountId?: number | undefined;
      accountName: string;
      /**
       * A secret: rendered only into the requester's ephemeral reply, never logged. Undefined when
       * the service answered without it (the account exists; its token is on the account page).
       */
      accountToken?: string | undefined;
      retentionDays: number;
      /** True when the admin gave no retention and DEFAULT_RETENTION_DAYS was sent. */
      retentionDefaulted: boolean;
      /** What the account got; the service's default is 0 when none was given. */
      maxDailyGB: number;
      maxDailyGBDefaulted: boolean;
    }
  | { kind: 'capacity-moved'; gb: number; result: CapacityMoveResult }
  /** A refusal (before any write), or a failure after one (then with a reference id in the log). */
  | { kind: 'capacity-failed'; failure: CapacityMoveError; referenceId?: string | undefined }
  | {
      kind: 'exported';
      files: ExportedFile[];
      failures: ({ type: SavedObjectType } & ServiceFailure)[];
      /** undefined when there was nothing to send. */
      delivery?: { ok: true } | ({ ok: false } & ServiceFailure) | undefined;
    }
  | ({ kind: 'service-error'; action: string } & ServiceFailure)
  /** `/agent channel`: the agent new threads in the channel use, and where that comes from. */
  | {
      kind: 'channel-agent';
      channelId: string;
      /** Undefined when `source` is `unbound`: no agent serves the channel here. */
      agentId?: string | undefined;
      source: 'channel' | 'default' | 'unbound';
      boundBy?: string | undefined;
      /** Whether integration posts here are investigated (`/agent channel investigate`). */
      watched?: boolean | undefined;
      /** Whether every top-level message here is answered (`/agent channel answer-all`). */
      answerAll?: boolean | undefined;
      connection?: string | undefined;
    }
  /** `/agent channel investigate on|off` done: the watch now, and before. */
  | { kind: 'channel-watch'; channelId: string; on: boolean; wasOn: boolean }
  /** `/agent channel answer-all on|off` done: the switch now, and before. */
  | { kind: 'channel-answer-all'; channelId: string; on: boolean; wasOn: boolean }
  /** `/agent channel use` / `reset` done: the channel's agent now, and before. */
  | {
      kind: 'channel-bound' | 'channel-reset';
      channelId: string;
      /** Undefined after a reset outside the home installations: the channel has no agent now. */
      agentId?: string | undefined;
      /** Undefined: the channel had none. */
      previousAgentId?: string | undefined;
      /** `channel-bound … on <alias>`: the connection the agent is on. */
      connection?: string | undefined;
    }
  /** `/agent connections`: every connection, each with its health. */
  | { kind: 'connections'; rows: ConnectionRow[] }
  /** `/agent connections add`: the form is open (or could not be opened). */
  | { kind: 'connection-form'; opened: true }
  | ({ kind: 'connection-form'; opened: false } & ServiceFailure)
  /** Adding without STATE_ENCRYPTION_KEY: refused, nothing opened or kept. */
  | { kind: 'connections-no-key' }
  | { kind: 'connection-remove'; result: RemoveResult }
  /** A command named a connection alias that does not exist; nothing changed. */
  | { kind: 'connection-unknown'; alias: string }
  /** A channel command outside a channel (Slack always names one; kept for safety). */
  | { kind: 'channel-missing'; usage: string }
  /**
   * DESIGN "The home workspaces": the operator's main account (accounts, capacity, export) and the
   * default connection serve the home installations only; nothing was sent.
   */
  | { kind: 'home-only'; usage: string }
  /** Not a home installation and the channel is bound to none of its connections: nothing was sent. */
  | { kind: 'channel-unbound' }
  /**
   * `/agent alerts webhook [rotate]`: the installation's own alert address and token, shown only
   * to the admin (the reply is ephemeral; the token is never logged).
   */
  | { kind: 'alert-webhook'; address: string; token: string; rotated: boolean }
  /** No STATE_ENCRYPTION_KEY: an installation's token cannot be kept sealed. */
  | { kind: 'alert-webhook-no-key' }
  /** `/agent schedule add` done: the schedule, and its first run (epoch ms). */
  | { kind: 'schedule-added'; schedule: Schedule; nextRun: number | undefined }
  /** `/agent schedule add` refused: nothing was kept. */
  | {
      kind: 'schedule-refused';
      reason: 'outsiders' | 'channel-full' | 'not-a-channel';
      limit?: number | undefined;
    }
  /** `/agent schedule`: the installation's schedules in the channel, soonest first. */
  | { kind: 'schedules'; channelId: string; rows: ListedSchedule[] }
  | { kind: 'schedule-removed'; schedule: Schedule }
  /** No schedule of this installation has that id (another's is not named either). */
  | { kind: 'schedule-unknown'; id: string };

/**
 * Whether the outcome changed what an admin's App Home shows: agents on or off, a channel's agent
 * or watch, the service connections (DESIGN "App Home").
 */
export function changesAdminHome(outcome: CommandOutcome): boolean {
  switch (outcome.kind) {
    case 'agent-state':
    case 'channel-bound':
    case 'channel-reset':
      return true;
    case 'channel-watch':
    case 'channel-answer-all':
      return outcome.on !== outcome.wasOn;
    case 'connection-remove':
      return outcome.result.outcome === 'removed';
    case 'schedule-added':
    case 'schedule-removed':
      return true;
    default:
      return false;
  }
}

/** Result class of an outcome, for the audit log. */
export function auditResult(outcome: CommandOutcome): 'ok' | 'refused' | 'failed' {
  switch (outcome.kind) {
    case 'refused':
    case 'not-configured':
    case 'usage':
    case 'channel-missing':
    case 'connections-no-key':
    case 'connection-unknown':
    case 'home-only':
    case 'channel-unbound':
    case 'alert-webhook-no-key':
    case 'schedule-refused':
    case 'schedule-unknown':
      return 'refused';
    case 'connection-remove':
      return outcome.result.outcome === 'removed' ? 'ok' : 'refused';
    case 'connection-form':
      return outcome.opened ? 'ok' : 'failed';
    case 'whoami-failed':
    case 'service-error':
      return 'failed';
    case 'capacity-failed':
      return ['update_failed', 'state_unknown', 'verify_failed'].includes(outcome.failure.reason)
        ? 'failed'
        : 'refused';
    case 'exported':
      return outcome.failures.length > 0 || outcome.delivery?.ok === false ? 'failed' : 'ok';
    default:
      return 'ok';
  }
}

/** A reference id for the reply, and the same id in a log line with the error's details. */
export function serviceFailure(
  context: { newReferenceId: () => string; logger: Logger },
  error: unknown,
  action: string,
): ServiceFailure {
  const referenceId = context.newReferenceId();
  context.logger.warn({ err: error, referenceId, action }, 'agent command failed');
  return { error, referenceId };
}
