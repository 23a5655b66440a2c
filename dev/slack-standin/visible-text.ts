import type { Block } from './types.js';

function textField(value: unknown): string {
  if (value && typeof value === 'object' && typeof (value as { text?: unknown }).text === 'string') {
    return (value as { text: string }).text;
  }
  return '';
}

/** Text inside rich_text elements (what Slack's composer produces). */
function richText(elements: unknown): string {
  if (!Array.isArray(elements)) return '';
  return elements
    .map((el: { type?: string; text?: string; elements?: unknown; user_id?: string; url?: string }) => {
      if (typeof el.text === 'string') return el.text;
      if (el.type === 'user') return `<@${el.user_id}>`;
      if (el.type === 'link') return el.url ?? '';
      return richText(el.elements);
    })
    .join('');
}

function blockText(block: Block): string {
  switch (block.type) {
    case 'markdown':
      return typeof block.text === 'string' ? block.text : '';
    case 'section': {
      const fields = Array.isArray(block.fields) ? block.fields.map(textField) : [];
      return [textField(block.text), ...fields].filter(Boolean).join('\n');
    }
    case 'header':
      return textField(block.text);
    case 'context':
      return Array.isArray(block.elements) ? block.elements.map(textField).filter(Boolean).join(' ') : '';
    case 'rich_text':
      return richText(block.elements);
    case 'task_card': {
      // The card's title, then its details: "Agent run complete — 3 steps · took 4 s · …".
      const details = richText((block.details as { elements?: unknown } | undefined)?.elements);
      return [typeof block.title === 'string' ? block.title : '', details].filter(Boolean).join(' — ');
    }
    default:
      return '';
  }
}

/**
 * What a person reads in a message: the text of its markdown, section, header, context,
 * rich_text and task_card blocks, one block per line; the fallback `text` when no block shows any text (Slack
 * shows `text` only as the notification fallback when blocks are present).
 */
export function visibleText(message: { text?: string; blocks?: Block[] }): string {
  const fromBlocks = (message.blocks ?? []).map(blockText).filter(Boolean).join('\n');
  return fromBlocks || message.text || '';
}
