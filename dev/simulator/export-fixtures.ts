/**
 * Saved objects served by POST /kibana/export, shaped per the seed's tables plus what the real
 * service adds (`_logzioOriginalAppId`, `references`, `_updatedAt`, and members nobody documents),
 * so a client's export can be checked for a lossless round trip.
 */
import type { Handler } from './context.js';
import { invalidBody, isObject, jsonOf } from './http-io.js';

/** The saved-object types the export endpoint accepts. */
export const EXPORT_TYPES = ['search', 'visualization', 'dashboard'] as const;
export type ExportType = (typeof EXPORT_TYPES)[number];

const KIBANA_VERSION = '7.10.2';
const INDEX = 'logzioCustomerKibanaIndex';

function hit(
  type: ExportType,
  name: string,
  object: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) {
  return {
    _index: INDEX,
    _type: '_doc',
    _id: `${type}:${name}`,
    _score: 1,
    _source: { type, [type]: object, ...extra },
  };
}

const searchSource = (query: string) =>
  JSON.stringify({ index: 'logzioCustomerIndex*', query: { query, language: 'lucene' }, filter: [] });

function searches() {
  return [
    hit('search', 'checkout-errors', {
      title: 'Checkout errors',
      description: 'Errors from the checkout service',
      hits: 0,
      columns: ['message', 'service', 'trace_id'],
      sort: ['@timestamp', 'desc'],
      version: 1,
      kibanaSavedObjectMeta: { searchSourceJSON: searchSource('service:checkout AND level:error') },
    }),
    hit('search', 'slow-requests', {
      title: 'Slow requests (> 500 ms)',
      description: '',
      hits: 0,
      columns: ['path', 'duration_ms'],
      sort: ['duration_ms', 'desc'],
      version: 1,
      kibanaSavedObjectMeta: { searchSourceJSON: searchSource('duration_ms:>500') },
    }),
  ];
}

function visualizations() {
  const visState = (title: string, type: string) =>
    JSON.stringify({
      title,
      type,
      params: { addLegend: true },
      aggs: [{ id: '1', type: 'count', schema: 'metric' }],
    });
  return [
    hit('visualization', 'errors-over-time', {
      title: 'Errors over time',
      visState: visState('Errors over time', 'histogram'),
      description: 'Count of error logs per minute',
      savedSearchId: 'checkout-errors',
      version: 1,
      kibanaSavedObjectMeta: { searchSourceJSON: JSON.stringify({ filter: [] }) },
    }),
    hit('visualization', 'latency-p95', {
      title: 'Latency p95',
      visState: visState('Latency p95', 'line'),
      description: '',
      savedSearchId: 'slow-requests',
      version: 1,
      kibanaSavedObjectMeta: { searchSourceJSON: JSON.stringify({ filter: [] }) },
    }),
  ];
}

function dashboards() {
  const panels = [
    {
      panelIndex: '1',
      gridData: { x: 0, y: 0, w: 24, h: 15, i: '1' },
      panelRefName: 'panel_0',
      version: '7.10.2',
    },
    {
      panelIndex: '2',
      gridData: { x: 24, y: 0, w: 24, h: 15, i: '2' },
      panelRefName: 'panel_1',
      version: '7.10.2',
    },
  ];
  return [
    {
      ...hit(
        'dashboard',
        'service-health',
        {
          title: 'Service health',
          description: 'Errors and latency across services',
          hits: 0,
          timeRestore: false,
          version: 1,
          panelsJSON: JSON.stringify(panels),
          optionsJSON: JSON.stringify({ hidePanelTitles: false, useMargins: true }),
          kibanaSavedObjectMeta: {
            searchSourceJSON: JSON.stringify({ query: { query: '', language: 'kuery' } }),
          },
          _logzioOriginalAppId: 1042,
        },
        {
          references: [
            { name: 'panel_0', type: 'visualization', id: 'errors-over-time' },
            { name: 'panel_1', type: 'visualization', id: 'latency-p95' },
          ],
          _updatedAt: '2024-04-30T09:12:44.123Z',
        },
      ),
      // Not in any document: a client must carry it through untouched.
      _simUndocumented: {
        note: 'members the service adds must round-trip',
        nested: [1, 'two', null, { ok: true }],
      },
    },
  ];
}

const FIXTURES: Record<ExportType, () => unknown[]> = {
  search: searches,
  visualization: visualizations,
  dashboard: dashboards,
};

/**
 * Hits as older exports have them: `_type` "doc" (or "search"), no `_source.type`, `_updatedAt`
 * in epoch milliseconds, no `_index` or `_id` on some, a null score. A client must back them up as
 * they came.
 */
function legacyHits(type: ExportType): unknown[] {
  const object =
    type === 'dashboard'
      ? { title: 'Legacy overview', panelsJSON: '[]', _logzioOriginalAppId: 7, version: 1 }
      : { title: `Legacy ${type}`, description: '', version: 1 };
  return [
    {
      _index: 'kibana-int',
      _type: 'doc',
      _id: `${type}:legacy-1`,
      _score: null,
      _source: { [type]: object, _updatedAt: 1_559_563_200_000 },
    },
    { _type: 'search', _source: { [type]: { title: `Orphan ${type}` }, _updatedAt: 1_559_649_600_000 } },
  ];
}

/** POST /kibana/export {type} */
export const exportSavedObjects: Handler = (ctx, req) => {
  const body = jsonOf(req.body);
  const type = isObject(body) ? body.type : undefined;
  if (typeof type !== 'string' || !(EXPORT_TYPES as readonly string[]).includes(type)) {
    return invalidBody(`type must be one of ${EXPORT_TYPES.join(', ')}`);
  }
  if (ctx.faults.exportAnswersEmpty) return { status: 200, body: {} };
  const hits = ctx.faults.legacyExport ? legacyHits(type as ExportType) : FIXTURES[type as ExportType]();
  return { status: 200, body: { kibanaVersion: KIBANA_VERSION, hits } };
};
