/**
 * Runs (sessions) and their turns. A turn's state is computed from the clock at its start — no timer
 * per step — so thousands of runs cost nothing while nobody polls them.
 */
import { randomUUID } from 'node:crypto';
import { buildAnswer, buildErrorReason, type RunContextEcho } from './answer-text.js';
import { parseDirective } from './directive.js';
import type { RunView, SimOutcome, SimScript } from './types.js';

interface Turn {
  prompt: string;
  /** What the request carried besides the message (additionalContext, timerange). */
  context: RunContextEcho;
  script: SimScript;
  startedAt: number;
  /** Answer (done) or reason (error), fixed when the turn starts. */
  message?: string;
}

/** State of a turn at one instant. */
export interface TurnState {
  status: 'loading' | SimOutcome;
  totalSteps: number;
  message?: string;
  finishedAt?: number;
}

/** What the status endpoint shows; `stale` while a follow-up is not yet registered. */
export interface Report {
  turn: number;
  state: TurnState;
  stale: boolean;
}

/** One session; `lastReported` and `waiters` serve the long poll. */
export interface RunRecord {
  agentId: string;
  sessionId: string;
  accountId: number;
  turns: Turn[];
  followUpAt?: number;
  lastReported?: string;
  waiters: Set<() => void>;
}

/**
 * An alert investigation's message is the bot's fixed request and the alert travels quoted in
 * `additionalContext`: a directive in the quoted alert's `Alert:` line (its title) scripts the turn
 * when the message has none, so tests and the sandbox can script alert runs as before. Only that
 * line: a directive elsewhere in quoted thread context scripts nothing.
 */
function alertDirective(context: RunContextEcho) {
  const line = /^Alert: .*$/m.exec(context.additionalContext ?? '')?.[0];
  return line === undefined ? undefined : parseDirective(line);
}

/** In-memory runs; scripts come from each prompt's directive, else the default script. */
export class RunStore {
  private readonly records = new Map<string, RunRecord>();

  constructor(
    private readonly defaultScript: SimScript,
    private readonly staleAfterFollowUpMs: number,
  ) {}

  start(
    agentId: string,
    accountId: number,
    prompt: string,
    now: number,
    context: RunContextEcho = {},
  ): RunRecord {
    const record: RunRecord = { agentId, sessionId: randomUUID(), accountId, turns: [], waiters: new Set() };
    record.turns.push(this.newTurn(prompt, 1, now, context));
    this.records.set(record.sessionId, record);
    return record;
  }

  /** Starts the next turn; the caller has checked that the current one is terminal. */
  followUp(record: RunRecord, prompt: string, now: number, context: RunContextEcho = {}): void {
    record.turns.push(this.newTurn(prompt, record.turns.length + 1, now, context));
    record.followUpAt = now;
    // A new turn is news for every caller, stale or not.
    record.lastReported = undefined;
    for (const wake of record.waiters) wake();
  }

  get(sessionId: string): RunRecord | undefined {
    return this.records.get(sessionId);
  }

  all(): RunRecord[] {
    return [...this.records.values()];
  }

  clear(): void {
    this.records.clear();
  }

  /** True state of the current turn. */
  current(record: RunRecord, now: number): TurnState {
    return turnState(lastTurn(record), now);
  }

  /** What the status endpoint reports now, including the stale window after a follow-up. */
  report(record: RunRecord, now: number): Report {
    const index = record.turns.length - 1;
    const previous = record.turns[index - 1];
    if (previous && this.inStaleWindow(record, now)) {
      return { turn: index - 1, state: turnState(previous, Number.POSITIVE_INFINITY), stale: true };
    }
    return { turn: index, state: turnState(lastTurn(record), now), stale: false };
  }

  /** Epoch ms at which the report may next change; undefined when it never will on its own. */
  nextChangeAt(record: RunRecord, now: number): number | undefined {
    if (this.inStaleWindow(record, now)) return (record.followUpAt ?? now) + this.staleAfterFollowUpMs;
    const turn = lastTurn(record);
    const { steps, stepMs } = turn.script;
    const endAt = turn.startedAt + (steps + 1) * stepMs;
    if (now >= endAt) return undefined;
    const nextStep = turn.startedAt + (Math.floor((now - turn.startedAt) / stepMs) + 1) * stepMs;
    return Math.min(nextStep, endAt);
  }

  view(record: RunRecord, now: number): RunView {
    const state = this.current(record, now);
    return {
      agentId: record.agentId,
      sessionId: record.sessionId,
      accountId: record.accountId,
      turns: record.turns.length,
      status: state.status,
      totalSteps: state.totalSteps,
      ...(state.message !== undefined && { message: state.message }),
      ...(state.finishedAt !== undefined && { finishedAt: state.finishedAt }),
      prompts: record.turns.map((t) => t.prompt),
      contexts: record.turns.map((t) => structuredClone(t.context)),
      script: { ...lastTurn(record).script },
      startedAt: lastTurn(record).startedAt,
    };
  }

  private inStaleWindow(record: RunRecord, now: number): boolean {
    return record.followUpAt !== undefined && now < record.followUpAt + this.staleAfterFollowUpMs;
  }

  private newTurn(prompt: string, turnNumber: number, now: number, context: RunContextEcho): Turn {
    const parsed = parseDirective(prompt) ?? alertDirective(context);
    if (parsed && !parsed.ok) {
      // A broken directive fails the turn visibly rather than running a script nobody asked for.
      return {
        prompt,
        context,
        script: { steps: 0, stepMs: 0, outcome: 'error' },
        startedAt: now,
        message: parsed.error,
      };
    }
    const d = parsed?.directive ?? {};
    const base = this.defaultScript;
    const script: SimScript = {
      steps: d.steps ?? base.steps,
      stepMs: d.stepMs ?? base.stepMs,
      outcome: d.outcome ?? base.outcome,
      ...((d.size ?? base.size) !== undefined && { size: d.size ?? base.size }),
    };
    const spec = {
      turn: turnNumber,
      prompt: parsed ? `${prompt.slice(0, parsed.start)}${prompt.slice(parsed.end)}`.trim() : prompt.trim(),
      size: script.size,
      answer: d.answer,
      mention: d.mention,
      echo: d.echo ? context : undefined,
    };
    const message =
      script.outcome === 'done'
        ? buildAnswer(spec)
        : script.outcome === 'error'
          ? buildErrorReason(spec)
          : undefined;
    return { prompt, context, script, startedAt: now, ...(message !== undefined && { message }) };
  }
}

function lastTurn(record: RunRecord): Turn {
  const turn = record.turns[record.turns.length - 1];
  if (!turn) throw new Error(`run ${record.sessionId} has no turn`);
  return turn;
}

function turnState(turn: Turn, now: number): TurnState {
  const { steps, stepMs, outcome } = turn.script;
  const endAt = turn.startedAt + (steps + 1) * stepMs;
  if (now >= endAt) {
    return {
      status: outcome,
      totalSteps: steps,
      ...(turn.message !== undefined && { message: turn.message }),
      finishedAt: endAt,
    };
  }
  return { status: 'loading', totalSteps: Math.min(steps, Math.floor((now - turn.startedAt) / stepMs)) };
}

/** Terminal statuses end polling; loading and timeout call for more. */
export function isTerminal(status: string): boolean {
  return status === 'done' || status === 'error' || status === 'canceled';
}
