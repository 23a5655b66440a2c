/**
 * What a line typed in the sandbox means. Pure, so the grammar is tested on its own:
 * `/quit`, `/new`, `/help`, `/shared`, `/home`, `/stop`, `/agent …`, `/alert …`, `/webhook …`, `/rate good|bad [comment]`,
 * `/schedule [--now] <question>`,
 * `/file <path> [question]`, a lone `:emoji:` (or 👍 / 👎) is a reaction, anything
 * else is a message in the current thread.
 */

/** One typed line, classified. */
export type InputLine =
  | { kind: 'empty' }
  | { kind: 'message'; text: string }
  | { kind: 'reaction'; name: string }
  | { kind: 'command'; text: string }
  /** `/rate good|bad [comment]`: a click on the last answer's feedback button. */
  | { kind: 'rate'; positive: boolean; comment?: string }
  | { kind: 'new-thread' }
  /** A monitoring integration posts an alert: a new thread the next message asks about. */
  | { kind: 'alert'; text: string }
  /** The vendor's alert webhook fires (POST /alerts): a card, and the bot investigates on its own. */
  | { kind: 'webhook'; text: string }
  /** Adds a daily scheduled question for the next minute; `now` also moves the bot's schedule clock there. */
  | { kind: 'schedule'; question: string; now: boolean; typed: string }
  /** Shares the sandbox channel with another organisation (Slack Connect), or stops sharing it. */
  | { kind: 'toggle-shared' }
  /** Opens the bot's Home tab: the sandbox prints the home the bot published. */
  | { kind: 'home' }
  /** Presses Stop on the current thread's agent session (agent_session_stopped). */
  | { kind: 'stop' }
  /** Shares a local file with a question (`typed` is echoed as it was typed). */
  | { kind: 'file'; path: string; question?: string; typed: string }
  | { kind: 'help' }
  | { kind: 'quit' }
  /** A sandbox command typed wrong: `text` says how it is used. */
  | { kind: 'usage'; typed: string; text: string }
  | { kind: 'unknown-command'; name: string };

/** How `/rate` is used, said when it is typed without good or bad. */
export const RATE_USAGE =
  '/rate needs good or bad: /rate good|bad [comment] clicks 👍 or 👎 under the last answer (and sends the comment through its form)';

/** How `/file` is used, said when it is typed without a path. */
export const FILE_USAGE =
  '/file needs a path: /file <path> [question] shares a local text file with your question (a path with spaces goes in double quotes)';

/** How `/schedule` is used, said when it is typed without a question. */
export const SCHEDULE_USAGE =
  '/schedule needs a question: /schedule [--now] <question> adds it as a daily scheduled question for the next minute (--now: asked within ~20 s)';

/** `[--now] <question>`. */
function parseSchedule(line: string, words: readonly string[]): InputLine {
  const now = words[0]?.toLowerCase() === '--now';
  const question = (now ? words.slice(1) : words).join(' ').trim();
  if (question === '') return { kind: 'usage', typed: line, text: SCHEDULE_USAGE };
  return { kind: 'schedule', question, now, typed: line };
}

/** `<path> [question]` or `"<path with spaces>" [question]`. */
function parseFile(line: string, rest: string): InputLine {
  const match = /^"([^"]+)"\s*(.*)$/.exec(rest) ?? /^(\S+)\s*(.*)$/.exec(rest);
  const [, path, question = ''] = match ?? [];
  if (!path) return { kind: 'usage', typed: line, text: FILE_USAGE };
  return question.trim() === ''
    ? { kind: 'file', path, typed: line }
    : { kind: 'file', path, question: question.trim(), typed: line };
}

/** Slack reports these aliases under their canonical names (👍 is `+1`, 👎 is `-1`). */
const CANONICAL_EMOJI: Readonly<Record<string, string>> = {
  thumbsup: '+1',
  thumbsdown: '-1',
  '👍': '+1',
  '👎': '-1',
};

/** Emoji names as Slack writes them: letters, digits, `_`, `-`, `+`, `'` (and skin tones after `::`). */
const EMOJI_LINE = /^:([a-z0-9_+'-]+(?:::skin-tone-[2-6])?):$/i;

/** Slack's name for an emoji typed as `name`, `:name:` or the emoji itself. */
export function canonicalEmoji(typed: string): string {
  const name = typed.replace(/^:|:$/g, '').toLowerCase();
  return CANONICAL_EMOJI[name] ?? name;
}

function parseSlash(line: string): InputLine {
  const [word = '', ...rest] = line.split(/\s+/);
  switch (word.toLowerCase()) {
    case '/quit':
    case '/exit':
      return { kind: 'quit' };
    case '/new':
      return { kind: 'new-thread' };
    case '/help':
      return { kind: 'help' };
    case '/shared':
      return { kind: 'toggle-shared' };
    case '/home':
      return { kind: 'home' };
    case '/stop':
      return { kind: 'stop' };
    case '/agent':
      return { kind: 'command', text: rest.join(' ') };
    case '/alert':
      return { kind: 'alert', text: rest.join(' ') || 'Error rate above 5% on checkout' };
    case '/webhook':
      return { kind: 'webhook', text: rest.join(' ') || 'Checkout error rate above 5%' };
    case '/schedule':
      return parseSchedule(line, rest);
    case '/file':
      return parseFile(line, line.slice(word.length).trim());
    case '/rate': {
      const [choice = '', ...words] = rest;
      const positive = /^(good|up|\+1|👍)$/i.test(choice)
        ? true
        : /^(bad|down|-1|👎)$/i.test(choice)
          ? false
          : undefined;
      if (positive === undefined) return { kind: 'usage', typed: line, text: RATE_USAGE };
      const comment = words.join(' ').trim();
      return comment ? { kind: 'rate', positive, comment } : { kind: 'rate', positive };
    }
    default:
      return { kind: 'unknown-command', name: word };
  }
}

/** Classifies one line of input (surrounding whitespace ignored). */
export function parseInputLine(raw: string): InputLine {
  const line = raw.trim();
  if (line === '') return { kind: 'empty' };
  if (/^\/[a-z]+(\s|$)/i.test(line)) return parseSlash(line);
  if (line === '👍' || line === '👎') return { kind: 'reaction', name: canonicalEmoji(line) };
  const emoji = EMOJI_LINE.exec(line);
  if (emoji?.[1]) return { kind: 'reaction', name: canonicalEmoji(emoji[1]) };
  return { kind: 'message', text: line };
}
