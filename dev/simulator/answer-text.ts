/**
 * Answer text of a done turn. A sized answer is varied Markdown (headings, paragraphs, a code
 * fence, a list, characters Slack escapes) of an exact length, so the bot's splitting at paragraph
 * and code-fence boundaries, and its file upload past a size, can be tested.
 */
import { MENTION_TEXT, type MentionKind } from './directive.js';

/** What shapes one answer. */
export interface AnswerSpec {
  turn: number;
  /** The turn's prompt with the directive removed. */
  prompt: string;
  size?: number | undefined;
  answer?: string | undefined;
  mention?: MentionKind[] | undefined;
  /** What the run was given besides the message, appended to the answer when set. */
  echo?: RunContextEcho | undefined;
}

/** The run request's context besides `message`, as received. */
export interface RunContextEcho {
  additionalContext?: string | undefined;
  timerange?: { startTime: string; endTime: string } | undefined;
}

/** The "what the agent was given" section of an `echo=context` answer. */
export function echoSection(context: RunContextEcho): string {
  const range = context.timerange
    ? `Time range: ${context.timerange.startTime} → ${context.timerange.endTime}`
    : 'Time range: none';
  const extra = context.additionalContext
    ? `Additional context (${context.additionalContext.length} characters):\n\n\`\`\`text\n${context.additionalContext.replace(/```/g, "'''")}\n\`\`\``
    : 'Additional context: none';
  return ['**What the agent was given**', range, extra].join('\n\n');
}

const WORDS = [
  'the agent reviewed error rates across services and found latency above baseline in checkout while',
  'payments stayed healthy; retries climbed after the deploy at noon and the cache hit ratio fell',
]
  .join(' ')
  .split(' ');

/** Answer of a done turn; a literal answer wins over size; an echo comes last. */
export function buildAnswer(spec: AnswerSpec): string {
  const answer = answerBody(spec);
  return spec.echo ? `${answer}\n\n${echoSection(spec.echo)}` : answer;
}

function answerBody(spec: AnswerSpec): string {
  const mentionLine =
    spec.mention && spec.mention.length > 0
      ? `Heads up ${spec.mention.map((m) => MENTION_TEXT[m]).join(' ')} — see below.`
      : undefined;
  if (spec.answer !== undefined) return mentionLine ? `${mentionLine}\n\n${spec.answer}` : spec.answer;
  if (spec.size !== undefined) return sizedAnswer(spec.size, mentionLine);
  const asked = spec.prompt.length > 200 ? `${spec.prompt.slice(0, 200)}…` : spec.prompt;
  return [
    mentionLine,
    `**Simulated answer (turn ${spec.turn})**`,
    `You asked: ${asked || '(empty prompt)'}`,
    '- p95 latency > 500 ms on `checkout` since 12:05 UTC\n- error rate < 1% & stable elsewhere',
  ]
    .filter((part) => part !== undefined)
    .join('\n\n');
}

/** Error reason of an error turn. */
export function buildErrorReason(spec: AnswerSpec): string {
  return spec.answer ?? `Simulated failure: the agent could not complete turn ${spec.turn}.`;
}

/** Exactly `size` characters; always ends in a plain paragraph, so no fence is left open. */
function sizedAnswer(size: number, firstBlock: string | undefined): string {
  const reserve = 12; // room for "\n\n" and a filler paragraph of at least 10 characters
  let text = '';
  for (let i = 0; ; i += 1) {
    const block = i === 0 && firstBlock !== undefined ? firstBlock : sizedBlock(i);
    const joined = text === '' ? block : `${text}\n\n${block}`;
    if (joined.length + reserve > size) break;
    text = joined;
  }
  return text === '' ? filler(size, 0) : `${text}\n\n${filler(size - text.length - 2, text.length)}`;
}

function sizedBlock(i: number): string {
  switch (i % 5) {
    case 0:
      return `## Finding ${i / 5 + 1}\n\n${filler(380 + (i % 7) * 20, i)}`;
    case 1:
      return filler(650 + (i % 3) * 90, i);
    case 2:
      return [
        '```text',
        ...Array.from(
          { length: 8 + (i % 4) },
          (_, n) =>
            `2024-05-01T12:0${n % 10}:00Z ERROR checkout-${n} timeout after ${500 + n * 37} ms <upstream>`,
        ),
        '```',
      ].join('\n');
    case 3:
      return Array.from(
        { length: 5 },
        (_, n) => `- *${WORDS[(i + n) % WORDS.length]}*: ${filler(60 + n * 15, i + n)}`,
      ).join('\n');
    default:
      return `Summary & next steps: ${filler(1400, i)}`;
  }
}

/** Exactly n characters of words, ending in a full stop. */
function filler(n: number, seed: number): string {
  if (n <= 0) return '';
  let out = '';
  for (let w = seed; out.length < n; w += 1) out += `${WORDS[w % WORDS.length]} `;
  return `${out.slice(0, n - 1)}.`;
}
