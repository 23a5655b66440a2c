import { type Simulator, simDirective } from '../../dev/simulator/index.js';
import { eventCallback, type SlackStandin } from '../../dev/slack-standin/index.js';
import { loadConfig } from '../../src/config/load-config.js';
import { type RunningBot, startBot } from '../../src/start-bot.js';
import { harnessEnv, TEST_SIGNING_SECRET } from '../support/bridge-harness.js';
import { mentionEvents, messagesOfType, waitUntil } from '../support/child-bot.js';
import { memoryLogger } from '../support/memory-log.js';
import { postEvent } from '../support/slack-events.js';

/**
 * Replicas of the real bot (startBot, as `npm start`) in this process, on a Redis topology,
 * reached with signed events; what they logged is kept for assertions and failure messages.
 */
export interface HaBot {
  send(event: object): Promise<{ status: number }>;
  logs(): Array<Record<string, unknown>>;
  stop(): Promise<void>;
}

export function haBots(sim: () => Simulator, slack: () => SlackStandin) {
  let bots: HaBot[] = [];

  async function start(env: Record<string, string>): Promise<HaBot> {
    const log = memoryLogger('info');
    const bridge: RunningBot = await startBot(loadConfig(harnessEnv(sim(), slack(), env)), {
      logger: log.logger,
    });
    const appUrl = `http://127.0.0.1:${bridge.port}`;
    let stopped = false;
    const bot: HaBot = {
      send: (event) => postEvent(appUrl, TEST_SIGNING_SECRET, eventCallback(event as never)),
      logs: log.records,
      stop: async () => {
        if (stopped) return;
        stopped = true;
        await bridge.stop();
      },
    };
    bots.push(bot);
    return bot;
  }

  const logged = (msg: string) => bots.flatMap((bot) => bot.logs()).filter((line) => line.msg === msg);
  /** Lines at warn or above that carry an error (the store failing under them, for one). */
  const troubles = () =>
    bots
      .flatMap((bot) => bot.logs())
      .filter((line) => (line.level === 'warn' || line.level === 'error') && line.err);

  /** Waits for `probe`; on a timeout the error carries what the bots logged at warn and above. */
  async function waitFor<T>(
    probe: () => T | undefined | null | false | Promise<T | undefined | null | false>,
    description: string,
    timeoutMs = 20_000,
  ): Promise<T> {
    try {
      return await waitUntil(probe, { timeoutMs, description, intervalMs: 50 });
    } catch (error) {
      const lines = bots
        .flatMap((bot) => bot.logs())
        .filter((line) => line.level === 'warn' || line.level === 'error')
        .map((line) => JSON.stringify(line).slice(0, 300));
      throw new Error(`${(error as Error).message}\n${lines.slice(-20).join('\n')}`);
    }
  }

  /** Mentions the bot (through `bot`) with a run of about `runMs` that answers `answer`. */
  async function ask(bot: HaBot, answer: string, runMs: number, user = 'UALICE') {
    const steps = Math.max(1, Math.ceil(runMs / 250));
    const mention = mentionEvents(slack(), `what broke? ${simDirective({ steps, stepMs: 250, answer })}`, {
      user,
    });
    await Promise.all([bot.send(mention.appMention), bot.send(mention.message)]);
    return mention;
  }

  const answersIn = (where: { channel: string; threadTs: string }) =>
    messagesOfType(slack(), where.channel, where.threadTs, 'agent_answer');

  return {
    start,
    logged,
    troubles,
    waitFor,
    ask,
    answersIn,
    /** Stops every bot started since the last call. */
    async stopAll() {
      await Promise.all(bots.map((bot) => bot.stop()));
      bots = [];
    },
  };
}
