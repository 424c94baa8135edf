import { sourceRecord } from '../../schemas/records/service.ts';
import { defineRoute } from '../core/endpoint.ts';
import { SOURCE } from '../../schemas/sources.ts';

export default defineRoute({
  method: 'get',
  path: '/v1/sources',
  summary: 'The dataset catalog: record counts, last refresh times, sources',
  description: 'Public.',
  tag: 'Service',
  source: SOURCE.svc_catalog,
  auth: false,
  record: sourceRecord,
  async handler({ services }) {
    const catalog = await services.lake.catalog();
    const live = services.live.health();
    const data = catalog.map((e) => ({
      table: e.table,
      dataset: e.dataset,
      description: e.description,
      source: e.source,
      source_urls: e.source_urls,
      record_count: e.record_count,
      last_refresh: e.last_refresh,
      partition_key: e.partition_key,
      partitions: e.partitions.map((p) => ({ value: p.value, rows: p.rows, refreshed_at: p.refreshed_at, parser_version: p.parser_version })),
      live: live.enabled && live.datasets.includes(e.dataset) ? live : null,
    }));
    const newest =
      data
        .map((d) => d.last_refresh)
        .filter((x): x is string => !!x)
        .sort()
        .pop() ?? null;
    return {
      data,
      page: { limit: Math.max(1, data.length), next_cursor: null, has_more: false },
      as_of: newest,
      source: SOURCE.svc_catalog,
      query_echo: {},
      warnings: [],
    };
  },
});
