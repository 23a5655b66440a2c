/**
 * Draws the README's picture from a real run: the sandbox's bot answers a question, and the thread
 * the Slack stand-in holds (the question, the bot's Block Kit answer) is rendered as HTML in
 * headless Chromium and saved as docs/images/thread.png.
 *   npx tsx scripts/render-thread-image.ts [output.png]
 * The HTML is a plain drawing of Slack's blocks (task card, markdown, context, feedback buttons):
 * what is drawn is what the bot posted, nothing is typed in by hand.
 */
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { createSandboxSession } from '../dev/sandbox/sandbox-session.js';
import { SANDBOX_CHANNEL, startSandboxStack } from '../dev/sandbox/sandbox-stack.js';
import type { StoredMessage } from '../dev/slack-standin/index.js';
import { silentLogger } from '../src/runtime/logger.js';

const OUTPUT = process.argv[2] ?? fileURLToPath(new URL('../docs/images/thread.png', import.meta.url));
const QUESTION = 'why are errors up on checkout in the last hour?';

type Block = Record<string, unknown> & { type: string };

const escapeHtml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/** The little Markdown the simulator writes: bold, inline code, bullets, paragraphs. */
function markdown(text: string): string {
  const inline = (line: string) =>
    escapeHtml(line)
      .replace(/\*\*([^*]+)\*\*/g, '<b>$1</b>')
      .replace(/`([^`]+)`/g, '<code>$1</code>');
  const html: string[] = [];
  let list: string[] = [];
  const flush = () => {
    if (list.length > 0) html.push(`<ul>${list.join('')}</ul>`);
    list = [];
  };
  for (const line of text.split('\n')) {
    if (/^- /.test(line)) list.push(`<li>${inline(line.slice(2))}</li>`);
    else {
      flush();
      if (line.trim() !== '') html.push(`<p>${inline(line)}</p>`);
    }
  }
  flush();
  return html.join('');
}

/** Slack's mrkdwn in context lines: *bold*, _italic_, `code`. */
const mrkdwn = (text: string) =>
  escapeHtml(text)
    .replace(/\*([^*]+)\*/g, '<b>$1</b>')
    .replace(/_([^_]+)_/g, '<i>$1</i>')
    .replace(/`([^`]+)`/g, '<code>$1</code>');

function richText(elements: unknown): string {
  return (
    JSON.stringify(elements ?? [])
      .match(/"text":"((?:[^"\\]|\\.)*)"/g)
      ?.map((match) => JSON.parse(match.slice(7)) as string)
      .join('') ?? ''
  );
}

function block(b: Block): string {
  switch (b.type) {
    case 'task_card':
      return `<div class="card"><span class="done">✓</span><div><b>${escapeHtml(String(b.title))}</b><div class="muted">${escapeHtml(richText((b.details as { elements?: unknown })?.elements))}</div></div></div>`;
    case 'markdown':
      return `<div class="md">${markdown(String(b.text))}</div>`;
    case 'context':
      return `<div class="context">${(b.elements as Array<{ text?: string }>).map((e) => mrkdwn(e.text ?? '')).join(' ')}</div>`;
    case 'context_actions':
      return '<div class="buttons"><span class="button">👍</span><span class="button">👎</span></div>';
    default:
      return '';
  }
}

function message(
  m: StoredMessage,
  who: { name: string; bot: boolean; initial: string; colour: string },
): string {
  const body = m.blocks?.length
    ? (m.blocks as Block[]).map(block).join('')
    : `<p>${escapeHtml((m.text ?? '').replace(/<@[A-Z0-9]+>/g, '@slack-agent-bridge'))}</p>`;
  const time = new Date(Number(m.ts) * 1000).toISOString().slice(11, 16);
  return `<div class="msg"><div class="avatar" style="background:${who.colour}">${who.initial}</div><div class="body"><div><b>${who.name}</b>${who.bot ? ' <span class="app">APP</span>' : ''} <span class="muted">${time}</span></div>${body}</div></div>`;
}

const STYLE = `body{margin:0;font:15px/1.46 -apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;color:#1d1c1d;background:#fff}
#thread{width:720px;padding:16px 20px;border:1px solid #ddd;border-radius:8px;margin:8px}
h1{font-size:16px;margin:0 0 12px}.muted{color:#616061;font-size:13px}
.msg{display:flex;gap:10px;margin:10px 0}.avatar{width:36px;height:36px;border-radius:6px;color:#fff;display:flex;align-items:center;justify-content:center;font-weight:700;flex:none}
.body{flex:1}.body p{margin:2px 0}.app{background:#e8e8e8;color:#616061;font-size:10px;padding:1px 3px;border-radius:2px}
.card{display:flex;gap:8px;border:1px solid #ddd;border-radius:8px;padding:8px 12px;margin:4px 0}.done{color:#2bac76;font-weight:700}
.md ul{margin:4px 0 4px 20px;padding:0}code{background:#f6f6f6;border:1px solid #e1e1e1;border-radius:3px;padding:0 3px;color:#c01343;font-size:13px}
.context{color:#616061;font-size:13px;margin:6px 0}.buttons{display:flex;gap:6px;margin-top:6px}
.button{border:1px solid #ccc;border-radius:6px;padding:2px 10px;font-size:14px}
.replies{color:#1264a3;font-size:13px;margin:6px 0 6px 46px}`;

async function main(): Promise<void> {
  const stack = await startSandboxStack({
    script: { steps: 3, stepMs: 150, outcome: 'done' },
    logger: silentLogger,
    logLevel: 'silent',
  });
  const session = createSandboxSession(stack, { line: () => undefined });
  try {
    await session.say(QUESTION);
    const [root, ...replies] = stack.slack.messages(
      SANDBOX_CHANNEL.id,
      stack.slack.messages(SANDBOX_CHANNEL.id)[0]?.ts,
    );
    if (!root) throw new Error('the sandbox thread is empty');
    const you = { name: 'you', bot: false, initial: 'Y', colour: '#1264a3' };
    const bot = { name: 'slack-agent-bridge', bot: true, initial: 'A', colour: '#4a154b' };
    const html = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><style>${STYLE}</style></head><body><div id="thread"><h1>Thread <span class="muted"># ${SANDBOX_CHANNEL.name}</span></h1>${message(root, you)}<div class="replies">${replies.length} ${replies.length === 1 ? 'reply' : 'replies'}</div>${replies.map((m) => message(m, bot)).join('')}</div></body></html>`;
    const browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu'],
    });
    try {
      const page = await browser.newPage({ deviceScaleFactor: 1 });
      await page.setContent(html);
      await page.locator('#thread').screenshot({ path: OUTPUT });
    } finally {
      await browser.close();
    }
    process.stdout.write(`wrote ${OUTPUT}\n`);
  } finally {
    session.close();
    await stack.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`render-thread-image: ${(error as Error).message}\n`);
    process.exit(1);
  },
);
