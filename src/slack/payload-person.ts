import { type PersonRef, senderWorkspace } from '../conversation/access/who-is-inside.js';

/*
 * The person behind each kind of payload, for who-is-inside.ts: the user id and the workspace the
 * payload names for that person (never an envelope's `team_id`: in a shared channel, the creator's).
 */

/** A `message` / `app_mention` event: `user_team`, else `team`, else `source_team`. */
export function personOfMessage(
  event: Parameters<typeof senderWorkspace>[0] & { user?: string | undefined },
): PersonRef {
  return { userId: event.user ?? '', workspaceId: senderWorkspace(event) };
}

/** A `reaction_added` or `agent_session_stopped` event names no workspace: the directory is always asked. */
export function personOfReaction(event: { user: string }): PersonRef {
  return { userId: event.user, workspaceId: undefined };
}

/** A slash command: `user_id` and the payload's `team_id`. */
export function personOfCommand(command: { user_id: string; team_id?: string | undefined }): PersonRef {
  return { userId: command.user_id, workspaceId: command.team_id || undefined };
}

/** An interaction (`block_actions`, `view_submission`): `user.team_id`, else `team.id`. */
export function personOfInteraction(body: {
  user: { id: string; team_id?: string | undefined };
  team?: { id?: string | undefined } | null | undefined;
}): PersonRef {
  return { userId: body.user.id, workspaceId: body.user.team_id || body.team?.id || undefined };
}
