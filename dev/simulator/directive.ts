/**
 * The `[sim …]` directive: a tag in a run's `context.message` that scripts that turn.
 *
 * Grammar (keys are case-insensitive; the first `[sim` tag in the message wins; every key optional):
 * ```
 * directive := "[sim" { WS key "=" value } [WS] "]"
 * key       := "steps" | "stepms" | "outcome" | "size" | "answer" | "mention" | "echo"
 * value     := bare | quoted
 * bare      := one or more characters other than whitespace, '"' and ']'
 * quoted    := '"' { any character but '"' and '\' | '\' any character } '"'
 * ```
 * - `steps`   integer 0..10000 — steps produced while loading.
 * - `stepms`  integer 0..3600000 — ms between steps (and before the outcome).
 * - `outcome` `done` | `error` | `canceled`.
 * - `size`    integer 1..10000000 — a done answer is exactly this many characters of varied Markdown.
 * - `answer`  literal text of the done answer or of the error reason (quote it when it has spaces).
 * - `mention` comma-separated `channel`, `here`, `everyone`, `user`, `channelref`, `link`: puts the
 *   matching Slack control sequence (`<!channel>`, `<!here>`, `<!everyone>`, `<@U0SIMUSER1>`,
 *   `<#C0SIMCHAN1>`, `<https://example.com/sim|click here>`) in the answer, for neutralisation tests.
 * - `echo`    `context` — the done answer ends with what the run was given besides the message
 *   (`additionalContext` and `timerange`), so the sandbox and tests can show what the agent saw.
 *
 * An unknown key or a bad value does not fall back silently: the turn ends in `error` whose
 * message names the problem, so a typo in a test shows at once.
 */
import type { SimOutcome } from './types.js';

/** Slack control sequences a directive can make the agent echo. */
export const MENTION_TEXT = {
  channel: '<!channel>',
  here: '<!here>',
  everyone: '<!everyone>',
  user: '<@U0SIMUSER1>',
  channelref: '<#C0SIMCHAN1>',
  link: '<https://example.com/sim|click here>',
} as const;

export type MentionKind = keyof typeof MENTION_TEXT;

/** What a directive asks for; absent members fall back to the simulator's default script. */
export interface Directive {
  steps?: number;
  stepMs?: number;
  outcome?: SimOutcome;
  size?: number;
  answer?: string;
  mention?: MentionKind[];
  echo?: 'context';
}

/** A parse result; start/end delimit the tag so it can be cut out of the prompt. */
export type DirectiveParse =
  | { ok: true; directive: Directive; start: number; end: number }
  | { ok: false; error: string };

const OUTCOMES: readonly SimOutcome[] = ['done', 'error', 'canceled'];
const PAIR = /\s+([A-Za-z]+)=("((?:[^"\\]|\\.)*)"|[^\s"\]]+)/y;
const END = /\s*\]/y;

/** Builds a directive tag, e.g. `[sim steps=5 stepms=100 outcome=error size=60000]`. */
export function simDirective(d: Directive): string {
  const parts: string[] = [];
  if (d.steps !== undefined) parts.push(`steps=${d.steps}`);
  if (d.stepMs !== undefined) parts.push(`stepms=${d.stepMs}`);
  if (d.outcome !== undefined) parts.push(`outcome=${d.outcome}`);
  if (d.size !== undefined) parts.push(`size=${d.size}`);
  if (d.answer !== undefined) parts.push(`answer="${d.answer.replace(/[\\"]/g, (c) => `\\${c}`)}"`);
  if (d.mention !== undefined && d.mention.length > 0) parts.push(`mention=${d.mention.join(',')}`);
  if (d.echo !== undefined) parts.push(`echo=${d.echo}`);
  return parts.length === 0 ? '[sim]' : `[sim ${parts.join(' ')}]`;
}

/** Finds and parses the first directive in a message; undefined when there is none. */
export function parseDirective(message: string): DirectiveParse | undefined {
  const start = message.search(/\[sim(?=[\s\]])/i);
  if (start < 0) return undefined;
  const directive: Directive = {};
  let at = start + 4;
  for (;;) {
    END.lastIndex = at;
    if (END.test(message)) return { ok: true, directive, start, end: END.lastIndex };
    PAIR.lastIndex = at;
    const pair = PAIR.exec(message);
    if (!pair)
      return { ok: false, error: `sim directive: cannot parse "${message.slice(start, start + 80)}"` };
    at = PAIR.lastIndex;
    const key = (pair[1] ?? '').toLowerCase();
    const value = pair[3] !== undefined ? pair[3].replace(/\\(.)/g, '$1') : (pair[2] ?? '');
    const error = applyPair(directive, key, value);
    if (error) return { ok: false, error: `sim directive: ${error}` };
  }
}

function applyPair(d: Directive, key: string, value: string): string | undefined {
  switch (key) {
    case 'steps':
      return setInt(
        value,
        0,
        10_000,
        (n) => {
          d.steps = n;
        },
        key,
      );
    case 'stepms':
      return setInt(
        value,
        0,
        3_600_000,
        (n) => {
          d.stepMs = n;
        },
        key,
      );
    case 'size':
      return setInt(
        value,
        1,
        10_000_000,
        (n) => {
          d.size = n;
        },
        key,
      );
    case 'outcome':
      if (!OUTCOMES.includes(value as SimOutcome))
        return `outcome must be done, error or canceled, not "${value}"`;
      d.outcome = value as SimOutcome;
      return undefined;
    case 'answer':
      d.answer = value;
      return undefined;
    case 'mention': {
      const kinds = value.split(',');
      const bad = kinds.find((k) => !Object.hasOwn(MENTION_TEXT, k));
      if (bad !== undefined) return `unknown mention "${bad}" (use ${Object.keys(MENTION_TEXT).join(', ')})`;
      d.mention = kinds as MentionKind[];
      return undefined;
    }
    case 'echo':
      if (value !== 'context') return `echo must be context, not "${value}"`;
      d.echo = 'context';
      return undefined;
    default:
      return `unknown key "${key}"`;
  }
}

function setInt(value: string, min: number, max: number, set: (n: number) => void, key: string) {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max)
    return `${key} must be an integer ${min}..${max}, not "${value}"`;
  set(n);
  return undefined;
}
