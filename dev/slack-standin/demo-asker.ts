import {
  appMentionEvent,
  eventCallback,
  messageEvent,
  postEvent,
  type SlackStandin,
  visibleText,
} from './index.js';

/** Options of {@link startDemoAsker}. */
export interface DemoAskerOptions {
  slack: SlackStandin;
  /** The bots' base URLs (events go to `${url}/slack/events`), taken in turn. */
  eventsUrls: string[];
  signingSecret: string;
  /** A new question this often. */
  everyMs: number;
  print: (line: string) => void;
  /** Default C0GENERAL. */
  channel?: string;
  /** Default UALICE (a workspace member). */
  user?: string;
}

/**
 * A person who keeps asking: every `everyMs` a new thread mentioning the bot. As Slack does, each
 * mention arrives twice (`app_mention` and `message`); here the two go to different replicas in
 * turn, so several replicas on one Redis show that each message is still one turn. Every answer
 * that lands in a thread is printed.
 */
export function startDemoAsker(options: DemoAskerOptions): { stop(): void } {
  const { slack, eventsUrls, signingSecret, print } = options;
  const channel = options.channel ?? 'C0GENERAL';
  const user = options.user ?? 'UALICE';
  let asked = 0;
  const printed = new Set<string>();

  const deliver = async (url: string, kind: string, event: object) => {
    try {
      const result = await postEvent(url, signingSecret, eventCallback(event as never));
      if (result.status !== 200) print(`  ${kind} → ${url}: HTTP ${result.status}`);
    } catch (error) {
      print(`  ${kind} → ${url}: ${(error as Error).message}`);
    }
  };

  const ask = () => {
    asked += 1;
    const text = `<@${slack.botUserId}> why are errors up? (question ${asked})`;
    const { ts } = slack.recordUserMessage({ channel, user, text });
    const mentionTo = eventsUrls[(asked - 1) % eventsUrls.length] as string;
    const messageTo = eventsUrls[asked % eventsUrls.length] as string;
    print(`asked question ${asked} in thread ${ts}: app_mention → ${mentionTo}, message → ${messageTo}`);
    void deliver(mentionTo, 'app_mention', appMentionEvent({ channel, user, text, ts }));
    void deliver(messageTo, 'message', messageEvent({ channel, user, text, ts }));
  };

  const watchAnswers = () => {
    for (const message of slack.allMessages()) {
      if (message.metadata?.event_type !== 'agent_answer' || printed.has(message.ts)) continue;
      printed.add(message.ts);
      const firstLine =
        visibleText(message)
          .split('\n')
          .find((line) => line.trim() !== '') ?? '';
      print(`answer in thread ${message.thread_ts ?? message.ts}: ${firstLine.slice(0, 100)}`);
    }
  };

  const asking = setInterval(ask, options.everyMs);
  const watching = setInterval(watchAnswers, 250);
  return {
    stop() {
      clearInterval(asking);
      clearInterval(watching);
    },
  };
}
