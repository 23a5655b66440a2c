/** Slack's text format as what the person saw: https://docs.slack.dev/messaging/formatting-message-text */

export interface NameLookups {
  /** A user's display name, if known (without "@"). */
  userName?(id: string): string | undefined;
  /** A channel's name, if known (without "#"). */
  channelName?(id: string): string | undefined;
}

/** Any Slack `<…>` sequence: it never contains `<`, `>` or a line break. */
const SEQUENCE = /<([^<>\n]+)>/g;

function splitLabel(inner: string): { target: string; label: string | undefined } {
  const bar = inner.indexOf('|');
  if (bar === -1) return { target: inner, label: undefined };
  const label = inner.slice(bar + 1).trim();
  return { target: inner.slice(0, bar), label: label === '' ? undefined : label };
}

/** `<!here>` → `@here`, `<!subteam^S1|@ops>` → `@ops`, `<!date^…|Feb 1>` → `Feb 1`. */
function special(inner: string): string {
  const { target, label } = splitLabel(inner);
  const [command = '', argument] = target.split('^');
  if (command === 'date') return label ?? argument ?? '';
  if (command === 'subteam') return `@${(label ?? argument ?? '').replace(/^@/, '')}`;
  return label && command !== 'here' && command !== 'channel' && command !== 'everyone'
    ? label
    : `@${command}`;
}

/** `<url|label>` → `label (url)`, or just what the person typed when the label is the address. */
function link(inner: string): string {
  const { target, label } = splitLabel(inner);
  const address = target.replace(/^(mailto|tel):/i, '');
  if (label === undefined) return address;
  const typed = [target, address, target.replace(/^https?:\/\//i, '')].map((value) =>
    value.replace(/\/$/, ''),
  );
  return typed.includes(label.replace(/\/$/, '')) ? label : `${label} (${address})`;
}

function sequence(inner: string, lookups: NameLookups): string {
  const kind = inner[0];
  const { target, label } = splitLabel(inner.slice(1));
  if (kind === '!') return special(inner.slice(1));
  if (kind === '@') return `@${label?.replace(/^@/, '') ?? lookups.userName?.(target) ?? target}`;
  if (kind === '#') return `#${label?.replace(/^#/, '') ?? lookups.channelName?.(target) ?? target}`;
  return link(inner);
}

/** Slack escapes exactly these three (https://docs.slack.dev/messaging/formatting-message-text#escaping). */
function decodeEntities(text: string): string {
  return text.replace(/&(lt|gt|amp);/g, (_entity, name: string) =>
    name === 'lt' ? '<' : name === 'gt' ? '>' : '&',
  );
}

/** Removes the bot's mentions: a leading "@bot:" with its punctuation, elsewhere a single space. */
function stripBotMentions(text: string, botUserId: string): string {
  const id = botUserId.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const mention = new RegExp(`[ \\t]*<@${id}(?:\\|[^<>\\n]*)?>[ \\t]*([,:;]?)[ \\t]*`, 'g');
  return text.replace(mention, (match, punctuation: string, offset: number, whole: string) => {
    const atLineStart = offset === 0 || whole[offset - 1] === '\n';
    const atLineEnd = offset + match.length === whole.length || whole[offset + match.length] === '\n';
    if (atLineStart || atLineEnd) return '';
    return punctuation ? `${punctuation} ` : ' ';
  });
}

/** The prompt for the agent: the bot's mentions removed, the rest readable, outer whitespace trimmed. */
export function toAgentPrompt(text: string, botUserId: string, lookups: NameLookups = {}): string {
  return readableSlackText(stripBotMentions(text, botUserId), lookups).trim();
}

/** Slack's markup as the text a person saw (entities decoded after the sequences); nothing trimmed. */
export function readableSlackText(text: string, lookups: NameLookups = {}): string {
  const readable = text.replace(SEQUENCE, (_match, inner: string) => sequence(inner, lookups));
  return decodeEntities(readable);
}
