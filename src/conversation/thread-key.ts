/** The key of a conversation (DESIGN "Thread key"): ids hold no ":", and `ts` is digits and a dot. */

/** `team:channel:thread_ts`, where `threadTs` is the top-level message's `ts` for a new thread. */
export function threadKey(teamId: string, channel: string, threadTs: string): string {
  return `${teamId}:${channel}:${threadTs}`;
}

/** The parts of a key made by `threadKey`, or undefined when it is not one. */
export function parseThreadKey(key: string) {
  const [teamId, channel, threadTs, ...rest] = key.split(':');
  if (!teamId || !channel || !threadTs || rest.length > 0) return undefined;
  return { teamId, channel, threadTs };
}
