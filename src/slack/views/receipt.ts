/** DESIGN "Answer receipt": https://docs.slack.dev/reference/block-kit/blocks/task-card-block/ */
import type { KnownBlock, TaskCardBlock } from '@slack/types';
import type { TurnNotice } from '../../conversation/thread-output-port.js';
import type { TurnReceipt } from '../../conversation/turn/turn-receipt.js';
import { formatDuration } from './notices.js';
import { describeTimeRange } from './time-range-footer.js';

/** What a receipt stands for: an answer, or one of the notices that end (or pause) a turn. */
export type ReceiptSubject = { kind: 'answer'; late?: boolean } | { kind: 'notice'; notice: TurnNotice };

/** The card and its words, for the message's first block and the start of its `text`. */
export interface ReceiptView {
  block: TaskCardBlock;
  /** "Agent run complete — 5 steps · took 2 min 3 s · looked at …": the card in one line. */
  text: string;
}

/** The card title of each notice; all are errors but a deadline the bot still watches. */
const NOTICE_TITLES: Record<TurnNotice['kind'], string> = {
  'run-error': 'Agent run failed',
  canceled: 'Agent run canceled',
  deadline: 'Stopped waiting for the agent',
  'watch-ended': 'Stopped watching the agent run',
  'service-error': 'Agent service error',
  'lost-turn': 'Request lost in a restart',
  stopped: 'Stopped following the agent run',
  withheld: 'Answer not posted here',
};

function titleAndStatus(subject: ReceiptSubject): { title: string; status: TaskCardBlock['status'] } {
  if (subject.kind === 'answer')
    return { title: subject.late ? 'Agent run complete (late)' : 'Agent run complete', status: 'complete' };
  const { notice } = subject;
  if (notice.kind === 'deadline' && (notice.watchForMs ?? 0) > 0)
    return { title: 'Agent still working', status: 'in_progress' };
  return { title: NOTICE_TITLES[notice.kind], status: 'error' };
}

/** "5 steps · took 2 min 3 s · looked at 13:05–14:05 UTC (2026-11-23)". */
export function receiptDetails(receipt: TurnReceipt): string {
  const steps =
    receipt.steps === undefined ? undefined : `${receipt.steps} ${receipt.steps === 1 ? 'step' : 'steps'}`;
  const [window] = describeTimeRange(receipt.timerange);
  const looked = window ? window.replace(/^Looked at/, 'looked at') : "time range: the agent's default";
  return [steps, `took ${formatDuration(receipt.tookMs)}`, looked].filter(Boolean).join(' · ');
}

/** The `task_card` for a turn's outcome; `turnId` is its task id. Pure. */
export function renderReceipt(subject: ReceiptSubject, receipt: TurnReceipt, turnId: string): ReceiptView {
  const { title, status } = titleAndStatus(subject);
  const details = receiptDetails(receipt);
  return {
    block: {
      type: 'task_card',
      task_id: turnId,
      title,
      status,
      details: {
        type: 'rich_text',
        elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: details }] }],
      },
    },
    text: `${title} — ${details}`,
  };
}

/** A notice with its receipt: the card first, then the notice; the text says both. */
export function noticeWithReceipt(
  view: { text: string; blocks: ReadonlyArray<KnownBlock> },
  receipt: ReceiptView,
): { text: string; blocks: KnownBlock[] } {
  return { text: `${receipt.text}\n${view.text}`, blocks: [receipt.block, ...view.blocks] };
}
