import type { Logger } from './ports.js';

/**
 * Who is inside the app's organisation (DESIGN "Who is inside"). Answers expose log data, so only
 * people of the app's own organisation are answered, rated or served by `/agent`. The app's
 * workspace and enterprise come from `auth.test`, never from an event's envelope: in a Slack
 * Connect channel the envelope's `team_id` is the workspace that created the channel.
 *
 * Every entry path (messages, reactions, buttons, modals, slash commands) asks the same check:
 * `await inside.check(person)`, with the person as its payload names them.
 */

/** The app's own organisation, from `auth.test`. */
export interface AppOrganisation {
  teamId: string;
  /** Set when the app's workspace belongs to an Enterprise Grid org. */
  enterpriseId?: string | undefined;
}

/** A person as a payload names them. */
export interface PersonRef {
  userId: string;
  /**
   * The workspace the payload gives for the person (for a message: `user_team`, else `team`,
   * else `source_team`); undefined when it names none, and then the directory is asked.
   */
  workspaceId?: string | undefined;
}

/** What the user directory (`users.info`) says about a person's organisation. */
export interface PersonOrganisation {
  teamId?: string | undefined;
  enterpriseId?: string | undefined;
}

/** Port: the person's organisation, undefined when Slack does not know them; throws when it cannot answer. */
export type LookupOrganisation = (userId: string) => Promise<PersonOrganisation | undefined>;

export type InsideVerdict =
  | { inside: true }
  | {
      inside: false;
      /** `lookup-failed`: Slack could not answer, so the person is refused (fail closed) and may try again. */
      reason: 'other-organisation' | 'unknown-user' | 'lookup-failed';
    };

/** What the payload alone decides: `ask` means only the directory can tell. */
export function judgeByWorkspace(
  app: AppOrganisation,
  workspaceId: string | undefined,
): 'inside' | 'outside' | 'ask' {
  if (workspaceId === undefined || workspaceId === '') return 'ask';
  if (workspaceId === app.teamId) return 'inside';
  // In a Grid org a sibling workspace is still the organisation: its enterprise decides.
  return app.enterpriseId ? 'ask' : 'outside';
}

/** What the directory's answer decides: the app's workspace, or (in Grid) the app's enterprise. */
export function judgeByDirectory(app: AppOrganisation, person: PersonOrganisation | undefined): boolean {
  if (!person) return false;
  if (person.teamId !== undefined && person.teamId === app.teamId) return true;
  return app.enterpriseId !== undefined && person.enterpriseId === app.enterpriseId;
}

/** The workspace a message event names for its sender; file shares and broadcasts may name none. */
export function senderWorkspace(event: {
  user_team?: string | undefined;
  team?: string | undefined;
  source_team?: string | undefined;
}): string | undefined {
  return event.user_team || event.team || event.source_team || undefined;
}

export interface InsideCheckDeps {
  app: AppOrganisation;
  /** ALLOW_EXTERNAL_USERS: everyone is answered, nobody is looked up. */
  allowExternalUsers: boolean;
  lookup: LookupOrganisation;
  logger: Logger;
}

/** The one check every entry path calls. */
export interface InsideCheck {
  check(person: PersonRef): Promise<InsideVerdict>;
}

export function createInsideCheck(deps: InsideCheckDeps): InsideCheck {
  const { app, logger } = deps;
  return {
    async check(person) {
      if (deps.allowExternalUsers) return { inside: true };
      const byWorkspace = judgeByWorkspace(app, person.workspaceId);
      if (byWorkspace === 'inside') return { inside: true };
      if (byWorkspace === 'outside') return { inside: false, reason: 'other-organisation' };
      let organisation: PersonOrganisation | undefined;
      try {
        organisation = await deps.lookup(person.userId);
      } catch (error) {
        logger.warn({ err: error, userId: person.userId }, 'users.info failed; refusing the person');
        return { inside: false, reason: 'lookup-failed' };
      }
      if (judgeByDirectory(app, organisation)) return { inside: true };
      return { inside: false, reason: organisation ? 'other-organisation' : 'unknown-user' };
    },
  };
}
