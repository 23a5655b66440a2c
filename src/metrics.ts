import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { AlertMetrics } from './alerts/alert-ports.js';
import type { ConversationMetrics } from './conversation/ports.js';
import type { ScheduleMetrics } from './conversation/schedules/schedule-firing.js';
import type { TurnOutcome } from './conversation/turn/turn-records.js';

const TURN_OUTCOMES: TurnOutcome[] = [
  'done',
  'error',
  'canceled',
  'deadline',
  'service_error',
  'lost',
  'undeliverable',
  'stopped',
];

/** Prometheus series served on GET /metrics. Names are part of the operator's dashboards. */
export interface Metrics extends ConversationMetrics, AlertMetrics, ScheduleMetrics {
  registry: Registry;
  slackApiError(method: string, error: string): void;
  /** Prometheus text exposition of every series. */
  render(): Promise<string>;
  contentType: string;
}

export function createMetrics(options: { defaultMetrics?: boolean } = {}): Metrics {
  const registry = new Registry();
  if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: registry, prefix: 'sab_' });
  const { counter } = seriesOn(registry);
  const turnsStarted = counter(
    'sab_turns_started_total',
    'Agent turns started, by kind (start = first turn of a thread, followUp = later turns).',
    ['kind'],
  );
  const turnsFinished = counter('sab_turns_finished_total', 'Agent turns finished, by outcome.', ['outcome']);
  const inFlight = new Gauge({
    name: 'sab_turns_in_flight',
    help: 'Turns this process is polling right now.',
    registers: [registry],
  });
  const polls = counter('sab_status_polls_total', 'Status requests to the agent service, by result.', [
    'result',
  ]);
  const serviceErrors = counter('sab_service_errors_total', 'Agent service errors, by class.', ['code']);
  const overLimit = counter(
    'sab_turns_over_limit_total',
    'Messages not taken because their sender used up RUNS_PER_PERSON_PER_HOUR.',
  );
  const stops = counter(
    'sab_stops_total',
    "Stop pressed on a thread's agent session, by result (stopped: a run was followed; idle: nothing ran; outsider: ignored).",
    ['result'],
  );
  const schedules = counter(
    'sab_schedule_occurrences_total',
    'Scheduled question occurrences, by result (run: asked and its run started; skipped: missed past SCHEDULE_GRACE_MINUTES or an outsider-readable channel; failed: not asked, or paused).',
    ['result'],
  );
  for (const result of ['run', 'skipped', 'failed']) schedules.inc({ result }, 0);
  // Known label values start at 0, so dashboards and rate() see a series before the first event.
  for (const kind of ['start', 'followUp']) turnsStarted.inc({ kind }, 0);
  for (const outcome of TURN_OUTCOMES) turnsFinished.inc({ outcome }, 0);
  for (const result of ['stopped', 'idle', 'outsider']) stops.inc({ result }, 0);
  return {
    registry,
    contentType: registry.contentType,
    turnStarted: (kind) => turnsStarted.inc({ kind }),
    turnFinished: (outcome: TurnOutcome) => turnsFinished.inc({ outcome }),
    turnsInFlight: (count) => inFlight.set(count),
    statusPoll: ({ ok, errorCode }) => polls.inc({ result: ok ? 'ok' : (errorCode ?? 'error') }),
    serviceError: (code) => serviceErrors.inc({ code }),
    turnOverLimit: () => overLimit.inc(),
    ...createSlackSeries(registry),
    ...createAlertSeries(registry),
    scheduleOccurrence: (result) => schedules.inc({ result }),
    stopPressed: (result) => stops.inc({ result }),
    render: () => registry.metrics(),
  };
}

/** What Slack made of the bot's calls and posts: errors, outcomes dropped, statuses lapsed, latency. */
function createSlackSeries(registry: Registry) {
  const { counter, histogram } = seriesOn(registry);
  const slackErrors = counter(
    'sab_slack_api_errors_total',
    'Slack Web API calls that failed, by method and error.',
    ['method', 'error'],
  );
  const dropped = counter(
    'sab_deliveries_dropped_total',
    'Turn outcomes given up on because Slack refused them for good, by Slack error.',
    ['error'],
  );
  const statusLapsed = counter(
    'sab_progress_status_lapsed_total',
    'Thread statuses that expired (Slack clears one after 2 minutes) before their refresh landed.',
  );
  const outsiderReadable = counter(
    'sab_outsider_readable_questions_total',
    'Questions asked where people outside the organisation (or guests) read, by what was done (private: answered in a DM; refused) and why.',
    ['action', 'reason'],
  );
  const delivery = histogram(
    'sab_delivery_latency_seconds',
    'Time from seeing a terminal run status to Slack accepting the answer.',
    [0.01, 0.025, 0.05, 0.1, 0.15, 0.25, 0.5, 1, 2.5, 5, 10],
  );
  return {
    slackApiError: (method: string, error: string) => slackErrors.inc({ method, error }),
    deliveryDropped: (error: string) => dropped.inc({ error }),
    progressStatusLapsed: () => statusLapsed.inc(),
    outsiderReadable: (action: string, reason: string) => outsiderReadable.inc({ action, reason }),
    deliveryLatency: (ms: number) => delivery.observe(ms / 1000),
  };
}

/** DESIGN "Alert investigations": alerts by outcome and source, investigations, time to verdict. */
function createAlertSeries(registry: Registry) {
  const { counter, histogram } = seriesOn(registry);
  const received = counter(
    'sab_alerts_received_total',
    'Alerts received (POST /alerts, or integration posts in watched channels), by outcome (investigating, duplicate, cooldown, limited) and source (webhook, channel).',
    ['outcome', 'source'],
  );
  const investigations = counter(
    'sab_alert_investigations_started_total',
    'Alert investigations whose agent run started, by source.',
    ['source'],
  );
  const verdict = histogram(
    'sab_alert_time_to_verdict_seconds',
    "Time from an alert's arrival to its investigation's answer in Slack.",
    [5, 10, 20, 30, 60, 120, 300, 600, 1200, 1800, 3600],
  );
  for (const source of ['webhook', 'channel']) {
    investigations.inc({ source }, 0);
    for (const outcome of ['investigating', 'duplicate', 'cooldown', 'limited'])
      received.inc({ outcome, source }, 0);
  }
  return {
    alertReceived: (outcome: string, source: string) => received.inc({ outcome, source }),
    investigationStarted: (source: string) => investigations.inc({ source }),
    timeToVerdict: (ms: number) => verdict.observe(ms / 1000),
  };
}

function seriesOn(registry: Registry) {
  const registers = [registry];
  return {
    counter: (name: string, help: string, labelNames: string[] = []) =>
      new Counter({ name, help, labelNames, registers }),
    histogram: (name: string, help: string, buckets: number[]) =>
      new Histogram({ name, help, buckets, registers }),
  };
}
