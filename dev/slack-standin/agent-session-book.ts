/** One call of `agents.sessions.*` the stand-in accepted, oldest first. */
export interface SessionCall {
  method: 'agents.sessions.setStatus' | 'agents.sessions.rename';
  channel: string;
  thread_ts: string;
  /** setStatus only. */
  status?: string;
  title?: string;
  at: number;
}

/** A thread's agent session as Slack keeps it. */
export interface AgentSessionEntry {
  status: string;
  title?: string | undefined;
}

/**
 * The stand-in's agent sessions (`agents.sessions.setStatus` / `rename`): every accepted call, the
 * sessions they made, and a refusal a test can switch on — the stand-in plays one workspace, so
 * this is that workspace refusing the methods (an app or plan without the feature).
 */
export class AgentSessionBook {
  readonly calls: SessionCall[] = [];
  readonly sessions = new Map<string, AgentSessionEntry>();
  /** When set, both methods answer this error. */
  refusal: string | undefined;

  /** From now on the sessions methods answer `error` (e.g. `unknown_method`); `false` undoes it. */
  refuse(error: string | false = 'unknown_method'): void {
    this.refusal = error === false ? undefined : error;
  }

  /** The calls on one thread's session, oldest first. */
  callsIn(channel: string, threadTs: string): SessionCall[] {
    return structuredClone(this.calls.filter((c) => c.channel === channel && c.thread_ts === threadTs));
  }

  /** The thread's session now (status and title), if one was created. */
  session(channel: string, threadTs: string): AgentSessionEntry | undefined {
    const entry = this.sessions.get(`${channel}:${threadTs}`);
    return entry ? { ...entry } : undefined;
  }

  /** True while Slack shows the Stop button: the session is `processing`. */
  showsStop(channel: string, threadTs: string): boolean {
    return this.session(channel, threadTs)?.status === 'processing';
  }
}
