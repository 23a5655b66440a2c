/**
 * The bare stack's arithmetic (issue 29, "cost above the libraries"): what the bot exchanged per
 * run in the measured window, turned into the work the floor process repeats, and the ratio of
 * the bot's CPU to the floor's. Pure: the processes live in floor-run.ts and floor.ts.
 */

/** Exchanges counted by the stand-ins: Slack Web API calls by method, service requests by kind. */
export interface ExchangeCounts {
  slack: Record<string, number>;
  /** `start` (POST a run), `status` (GET a run's status) or `<METHOD> other`. */
  service: Record<string, number>;
}

/** What one run of the floor does, on average: rates per run (fractions spread over the runs). */
export interface FloorRates {
  starts: number;
  polls: number;
  /** Slack calls per run by method, in the order the bot first made them. */
  slack: Record<string, number>;
}

/** The work the floor process is asked to do for one batch of mentions. */
export interface FloorPlan {
  runs: number;
  rates: FloorRates;
  /** One argument set per Slack method, as the bot sent it (channel and thread replaced per run). */
  samples: Record<string, Record<string, unknown>>;
}

/** Exchanges of each kind, as counted by the floor itself. */
export interface FloorExchanges {
  mentions: number;
  service: number;
  slack: number;
  /** Calls that failed (counted in `service`/`slack` too: they were exchanges all the same). */
  failed: number;
  /** The failures by call and error (`slack chat.postMessage: invalid_blocks`), for a diagnosis. */
  failures?: Record<string, number>;
}

/** The bot's exchanges during a window: the counts at its end minus those at its start. */
export function countsBetween(before: ExchangeCounts, after: ExchangeCounts): ExchangeCounts {
  const minus = (a: Record<string, number>, b: Record<string, number>) =>
    Object.fromEntries(
      Object.entries(a)
        .map(([key, n]) => [key, n - (b[key] ?? 0)] as const)
        .filter(([, n]) => n > 0),
    );
  return { slack: minus(after.slack, before.slack), service: minus(after.service, before.service) };
}

/** The Web API method of a stand-in count key (`chat.postMessage` or `chat.postMessage ratelimited`). */
const methodOf = (key: string) => key.split(' ')[0] as string;

/**
 * Per-run rates of the window's exchanges. `auth.test` is the bot's start-up check, not a run's.
 * Service requests other than starts and polls (none in the bench's script) are left out: the
 * floor repeats what runs do.
 */
export function floorRates(window: ExchangeCounts, runs: number): FloorRates {
  if (!(runs > 0)) throw new RangeError(`runs must be positive: ${runs}`);
  const slack: Record<string, number> = {};
  for (const [key, n] of Object.entries(window.slack)) {
    const method = methodOf(key);
    if (method === 'auth.test') continue;
    slack[method] = (slack[method] ?? 0) + n / runs;
  }
  return {
    starts: (window.service.start ?? 0) / runs,
    polls: (window.service.status ?? 0) / runs,
    slack,
  };
}

/**
 * How many of something run `index` does when runs do `rate` each on average: the integer
 * steps of `rate × index`, so N runs do floor(rate × N) in all, spread evenly.
 */
export function shareOf(rate: number, index: number): number {
  return Math.floor(rate * (index + 1) + 1e-9) - Math.floor(rate * index + 1e-9);
}

/** Exchanges per run: the mention plus every service request and Slack call. */
export function botExchangesPerRun(window: ExchangeCounts, runs: number): number {
  const rates = floorRates(window, runs);
  const slack = Object.values(rates.slack).reduce((sum, n) => sum + n, 0);
  const otherService = Object.entries(window.service)
    .filter(([kind]) => kind !== 'start' && kind !== 'status')
    .reduce((sum, [, n]) => sum + n / runs, 0);
  return 1 + rates.starts + rates.polls + otherService + slack;
}

export const floorExchangesPerRun = (done: FloorExchanges, runs: number): number =>
  (done.mentions + done.service + done.slack) / runs;

/** The bot's CPU per run over the floor's (the target: at most 1.2). */
export function cpuRatio(botCpuSeconds: number, floorCpuSeconds: number): number {
  return floorCpuSeconds > 0 ? botCpuSeconds / floorCpuSeconds : Number.NaN;
}

const JSONISH = /^\s*[[{]/;

/**
 * One Slack call of run `index`, from the bot's sample: the run's channel and thread in place of
 * the sample's, the token left to the client, and JSON-encoded fields (blocks, metadata) parsed
 * back so the Web client encodes them as it did for the bot.
 */
export function callArgs(
  sample: Record<string, unknown>,
  run: { channel: string; threadTs: string },
): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(sample)) {
    if (key === 'token') continue;
    if (key === 'channel' || key === 'channel_id') args[key] = run.channel;
    else if (key === 'thread_ts') args[key] = run.threadTs;
    else if (typeof value === 'string' && JSONISH.test(value)) args[key] = parseOr(value);
    else args[key] = value;
  }
  return args;
}

function parseOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
