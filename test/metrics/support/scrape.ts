/**
 * A scrape of `/metrics` as Prometheus reads it: the text is parsed by a real parser of the exposition format
 * (parse-prometheus-text-format, a port of the official Python client's parser, in prom2json's shape), never
 * by pattern matching here. That parser folds a histogram's labelled series into one, so tests count with
 * the counters beside each histogram and check histograms by family and type here
 * (test/metrics/prometheus-metrics.test.ts reads their series from prom-client's own registry).
 */
import parsePrometheusTextFormat, { type PrometheusFamily } from 'parse-prometheus-text-format';
import { expect } from 'vitest';

export interface Scrape {
  families: PrometheusFamily[];
  /** A counter's or gauge's value for exactly these labels; 0 when the series does not exist yet. */
  value(name: string, labels?: Record<string, string | number>): number;
  /** Every series of a family: its labels and value. */
  series(name: string): { labels: Record<string, string>; value: number }[];
}

export async function scrape(url: string): Promise<Scrape> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const families = parsePrometheusTextFormat(await response.text());
  const family = (name: string) => families.find((f) => f.name === name);
  const sample = (name: string, labels: Record<string, string | number> = {}) => {
    const wanted = Object.entries(labels).map(([k, v]) => [k, String(v)]);
    return family(name)?.metrics.find(
      (m) =>
        Object.keys(m.labels ?? {}).length === wanted.length &&
        wanted.every(([k, v]) => m.labels?.[k as string] === v),
    );
  };
  return {
    families,
    value: (name, labels) => Number(sample(name, labels)?.value ?? 0),
    series: (name) =>
      (family(name)?.metrics ?? []).map((m) => ({ labels: m.labels ?? {}, value: Number(m.value) })),
  };
}
