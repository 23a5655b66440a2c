import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_TYPES, type Simulator, startSimulator } from '../../dev/simulator/index.js';
import { call, errorBodyShape } from './sim-http.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ quiet: true });
});
afterAll(() => sim.close());

const exportType = (type: unknown) => call(sim, 'POST', '/kibana/export', { body: { type } });

/** Members the seed's table lists for each type. */
const MEMBERS = {
  search: ['title', 'description', 'hits', 'columns', 'sort', 'version', 'kibanaSavedObjectMeta'],
  visualization: ['title', 'visState', 'description', 'savedSearchId', 'version', 'kibanaSavedObjectMeta'],
  dashboard: [
    'title',
    'description',
    'hits',
    'timeRestore',
    'version',
    'panelsJSON',
    'kibanaSavedObjectMeta',
  ],
} as const;

describe('export', () => {
  it.each(EXPORT_TYPES)('returns %s objects in the seed shape', async (type) => {
    const res = await exportType(type);
    expect(res.status).toBe(200);
    expect(res.body.kibanaVersion).toEqual(expect.any(String));
    expect(res.body.hits.length).toBeGreaterThan(0);
    for (const hit of res.body.hits) {
      expect(hit).toMatchObject({
        _index: expect.any(String),
        _type: expect.any(String),
        _score: expect.any(Number),
      });
      expect(hit._id).toMatch(new RegExp(`^${type}:.+`));
      expect(hit._source.type).toBe(type);
      const object = hit._source[type];
      for (const member of MEMBERS[type]) expect(object, member).toHaveProperty(member);
      expect(typeof JSON.parse(object.kibanaSavedObjectMeta.searchSourceJSON)).toBe('object');
    }
  });

  it('carries the dashboard members the seed does not list', async () => {
    const [hit] = (await exportType('dashboard')).body.hits;
    const dashboard = hit._source.dashboard;
    expect(Number.isInteger(dashboard._logzioOriginalAppId)).toBe(true);
    expect(Array.isArray(JSON.parse(dashboard.panelsJSON))).toBe(true);
    expect(hit._source.references).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'visualization' })]),
    );
    expect(Number.isNaN(Date.parse(hit._source._updatedAt))).toBe(false);
    expect(Object.keys(hit)).toContain('_simUndocumented');
  });

  it('checks the visualization payload is JSON text', async () => {
    const [hit] = (await exportType('visualization')).body.hits;
    expect(JSON.parse(hit._source.visualization.visState)).toHaveProperty('type');
  });

  it('answers the same objects every time', async () => {
    expect((await exportType('dashboard')).body).toEqual((await exportType('dashboard')).body);
  });

  it.each([['config'], [undefined], [3]])('refuses type %s with 400', async (type) => {
    const res = await exportType(type);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errorBodyShape);
  });
});
