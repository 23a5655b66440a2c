/**
 * Slack's escaping rule for mrkdwn text: `&`, `<` and `>` are control characters and must be sent
 * as `&amp;`, `&lt;` and `&gt;` unless they are part of a control sequence the sender means
 * (https://docs.slack.dev/messaging/formatting-message-text#escaping). Slack itself does not refuse
 * such text: it reads a stray `<` as the start of a link and shows something else than was meant
 * (`<permalink|in <#C1>>` ends at the first `>`). The stand-in refuses it, so a test sees it.
 *
 * A `<` must open one of the documented sequences
 * (https://docs.slack.dev/messaging/formatting-message-text#advanced):
 * `<@U…>` / `<@W…>`, `<#C…>`, `<!here>`-style specials (`<!subteam^…>`, `<!date^…|fallback>`),
 * `<http(s)://…>` / `<mailto:…>`, each with an optional `|label` that holds no `<` or `>`.
 * A `>` outside a sequence is allowed only where it starts a block quote: first on its line.
 * A bare `&` is not refused: Slack shows it as written.
 */

/** One well-formed control sequence, anchored at a `<`. */
const CONTROL_SEQUENCE =
  /^<(?:[@#][A-Z0-9]+|![a-z_]+(?:\^[^<>|\n]*)*|(?:https?:\/\/|mailto:)[^<>|\s]+)(?:\|[^<>]*)?>/;

/** The first place `text` breaks the escaping rule, as a Slack-style message; undefined when none. */
export function mrkdwnEscapeProblem(text: string): string | undefined {
  let lineStart = true;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (char === '<') {
      const sequence = CONTROL_SEQUENCE.exec(text.slice(i, i + 4_000));
      if (!sequence) return `unescaped "<" at ${i} (write &lt; or a well-formed control sequence)`;
      i += sequence[0].length - 1;
      lineStart = false;
      continue;
    }
    if (char === '>' && !lineStart) return `unescaped ">" at ${i} (write &gt; outside a block quote)`;
    if (char === '\n') lineStart = true;
    else if (char !== ' ' && char !== '\t' && !(char === '>' && lineStart)) lineStart = false;
  }
  return undefined;
}
