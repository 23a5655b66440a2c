/** A Slack message's words wherever they are (`text`, attachments, blocks). Pure. */
import type { SlackAttachment, ThreadMessage } from './context-ports.js';

type Json = Record<string, unknown>;

const asString = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;
const asList = (value: unknown): Json[] =>
  Array.isArray(value) ? value.filter((item): item is Json => typeof item === 'object' && item !== null) : [];
const textOf = (object: unknown): string | undefined =>
  typeof object === 'object' && object !== null ? asString((object as Json).text) : undefined;

/** One rich_text element as Slack markup, so mentions and links read like those in `text`. */
function richElement(element: Json): string {
  switch (element.type) {
    case 'text':
      return typeof element.text === 'string' ? element.text : '';
    case 'link': {
      const url = asString(element.url) ?? '';
      const label = asString(element.text);
      return label ? `<${url}|${label}>` : `<${url}>`;
    }
    case 'user':
      return `<@${asString(element.user_id) ?? ''}>`;
    case 'channel':
      return `<#${asString(element.channel_id) ?? ''}>`;
    case 'usergroup':
      return `<!subteam^${asString(element.usergroup_id) ?? ''}>`;
    case 'broadcast':
      return `<!${asString(element.range) ?? 'here'}>`;
    case 'emoji':
      return `:${asString(element.name) ?? ''}:`;
    case 'date':
      return asString(element.fallback) ?? '';
    default:
      // Containers (sections, lists, quotes, preformatted) hold elements of their own.
      return Array.isArray(element.elements) ? richContainer(element) : '';
  }
}

function richContainer(container: Json): string {
  const inner = asList(container.elements).map(richElement);
  return container.type === 'rich_text_list' ? inner.map((line) => `- ${line}`).join('\n') : inner.join('');
}

/** The text of one block; unknown types (images, actions, dividers, future ones) give nothing. */
function blockText(block: Json): string | undefined {
  switch (block.type) {
    case 'section': {
      const fields = asList(block.fields).map(textOf).filter(Boolean);
      return [textOf(block.text), ...fields].filter(Boolean).join('\n') || undefined;
    }
    case 'header':
      return textOf(block.text);
    case 'markdown':
      return asString(block.text);
    case 'context':
      return asList(block.elements).map(textOf).filter(Boolean).join(' ') || undefined;
    case 'rich_text':
      return asList(block.elements).map(richElement).join('\n') || undefined;
    default:
      return undefined;
  }
}

/** The text of one attachment; `fallback` only when nothing else is there (it repeats the rest). */
function attachmentText(attachment: SlackAttachment): string | undefined {
  const fields = (attachment.fields ?? [])
    .map((field) => [asString(field.title), asString(field.value)].filter(Boolean).join(': '))
    .filter(Boolean);
  const blocks = asList(attachment.blocks).map(blockText);
  const parts = [attachment.pretext, attachment.title, attachment.text, ...fields, ...blocks]
    .map(asString)
    .filter((part): part is string => part !== undefined);
  return parts.length > 0 ? parts.join('\n') : asString(attachment.fallback);
}

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

/** A message's text pieces in Slack markup, each left out when an earlier piece already holds it. */
export function messageMarkup(message: ThreadMessage): string {
  const pieces = [
    asString(message.text),
    ...asList(message.blocks).map(blockText),
    ...(Array.isArray(message.attachments) ? message.attachments.map(attachmentText) : []),
  ];
  const kept: string[] = [];
  for (const piece of pieces) {
    if (piece === undefined) continue;
    const seen = squash(kept.join(' '));
    if (seen.includes(squash(piece))) continue;
    kept.push(piece.trim());
  }
  return kept.join('\n');
}

/** User ids a message mentions (`<@U…>` in its markup), so their names can be looked up first. */
export function mentionedUserIds(markup: string): string[] {
  return [...new Set([...markup.matchAll(/<@([A-Z0-9]+)(?:\|[^>]*)?>/g)].map((match) => match[1] as string))];
}
