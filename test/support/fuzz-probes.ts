import { gzipSync } from 'node:zlib';
import { type ContractApp, fill, type Operation, operationsOf, type Parameter, query } from './contract-app.ts';

/**
 * The fuzz suite's probes (#19), generated from the served `/openapi.json`: every parameter of every operation gets a
 * bounded set of hostile values (`VALUES_PER_PARAM`: the ones its type calls for, then classes in rotation, so each
 * class reaches every kind of parameter), every body member a set of hostile JSON values, every body operation hostile
 * raw bodies (charset, Content-Encoding, corrupt gzip, a gzip bomb, cut-off JSON), and a lake list and a body
 * operation hostile Authorization and X-Request-Id headers. Shared by the suite (test/contract/fuzz.test.ts: no 5xx,
 * no leak) and the bench that times the answers (test/bench/fuzz.bench.ts: the 2 s bound, beside well-formed calls).
 */

const VALUES_PER_PARAM = 4;
/**
 * An export takes its list's parameters through the list's own validation (`filterList`), which the list's probes
 * already cover; a value that validates to nothing (whitespace) streams the whole table, so exports get two values each.
 */
const VALUES_PER_EXPORT_PARAM = 2;
/** Two at a time: the machine has two cores, and more would only queue (and stretch each answer's time). */
const CONCURRENCY = 2;

/** One hostile value: its query-string form (for `name`) and its path-segment form, or null where it has none. */
interface Hostile {
  name: string;
  inQuery(param: string): string;
  inPath: string | null;
  /** What the server may echo back (a 422's `input`), removed before the body is searched for leaks. */
  echo: string;
}

/** A value sent as its text, percent-encoded. */
const text = (name: string, value: string): Hostile => ({
  name,
  inQuery: (p) => `${p}=${encodeURIComponent(value)}`,
  inPath: encodeURIComponent(value),
  echo: value,
});
/** A value sent as written: malformed percent-encoding the client must not fix. */
const raw = (name: string, value: string): Hostile => ({ name, inQuery: (p) => `${p}=${value}`, inPath: value, echo: value });
/** A query-only shape (arrays and objects where a scalar is expected). */
const shape = (name: string, render: (p: string) => string): Hostile => ({ name, inQuery: render, inPath: null, echo: '' });

const HUGE_INT = text('huge integer', '9'.repeat(40));
const INT64_OVERFLOW = text('int64 overflow', '9223372036854775808');
const OVERFLOW_FLOAT = text('float overflow', '1e309');
const NEGATIVE_OVERFLOW = text('negative float overflow', '-1e309');
const NAN = text('NaN', 'NaN');
const IMPOSSIBLE_DATE = text('impossible date', '2024-02-30');
const BAD_PERCENT = raw('bad percent-encoding', '%zz');

/** Every class, in the rotation order. */
const CLASSES: Hostile[] = [
  BAD_PERCENT,
  raw('truncated UTF-8 escape', '%E0%A4%A'),
  raw('invalid UTF-8 (a lone surrogate)', '%ED%A0%80'),
  text('NUL and control characters', 'a\u0000b\u0007\u001b[31m\r\n'),
  text('unicode (astral, RTL override, BOM)', '𝕏é\u202eǅ\ufeff'),
  text('very long string', 'a'.repeat(8_000)),
  text('SQL injection', "' OR '1'='1' --"),
  text('SQL injection (a statement)', '1); DROP TABLE api_keys; --'),
  text('path traversal', '../../../../etc/passwd'),
  HUGE_INT,
  INT64_OVERFLOW,
  OVERFLOW_FLOAT,
  NAN,
  IMPOSSIBLE_DATE,
  text('whitespace only', ' \t '),
  shape('repeated parameter', (p) => `${p}=1&${p}=2`),
  shape('array', (p) => `${p}[]=x&${p}[]=y`),
  shape('object', (p) => `${p}[a][b]=x`),
];
const PATH_CLASSES = CLASSES.filter((c) => c.inPath !== null);

/** The classes a parameter's type calls for, before the rotation. */
function typeClasses(s: Parameter['schema']): Hostile[] {
  if (s.type === 'integer' || s.type === 'number') return [HUGE_INT, OVERFLOW_FLOAT, NEGATIVE_OVERFLOW, NAN];
  if (s.format === 'date') return [IMPOSSIBLE_DATE, text('year zero', '0000-00-00')];
  if (s.pattern?.includes('\\d{4}-')) return [IMPOSSIBLE_DATE, text('impossible time', '2024-01-01T25:61:00Z')];
  return [BAD_PERCENT];
}

let rotation = 0;
function valuesFor(prm: Parameter, n: number): Hostile[] {
  if (prm.in === 'path') return PATH_CLASSES;
  const out = typeClasses(prm.schema).slice(0, n);
  while (out.length < n) {
    const c = CLASSES[rotation++ % CLASSES.length];
    if (!out.includes(c)) out.push(c);
  }
  return out;
}

/** JSON texts put in place of one body member. */
const BODY_VALUES: { name: string; json: string; echo?: string }[] = [
  { name: 'float overflow', json: '1e309' },
  { name: 'negative float overflow', json: '-1e309' },
  { name: 'huge integer', json: '9'.repeat(40) },
  { name: 'NUL and control characters', json: '"a\\u0000b\\u0007"', echo: 'a\u0000b\u0007' },
  { name: 'lone surrogate', json: '"\\ud800"' },
  { name: 'very long string', json: JSON.stringify('a'.repeat(20_000)) },
  { name: 'SQL injection', json: JSON.stringify("x' OR '1'='1' --"), echo: "x' OR '1'='1' --" },
  { name: 'path traversal', json: '"../../../../etc/passwd"' },
  { name: 'array', json: '["a",["b"]]' },
  { name: 'object', json: '{"a":{"b":1}}' },
  { name: 'null', json: 'null' },
  { name: 'boolean', json: 'true' },
  { name: 'deep nesting', json: `${'['.repeat(2_000)}${']'.repeat(2_000)}` },
  { name: 'prototype key', json: '{"__proto__":{"polluted":true}}' },
];

/** Where a member's hostile JSON goes in the valid body's text. */
const HOLE = '\u0000hole\u0000';

/** Whole bodies: headers and bytes. */
const RAW_BODIES: { name: string; headers: Record<string, string>; body: string | Buffer }[] = [
  { name: 'charset utf-16', headers: { 'Content-Type': 'application/json; charset=utf-16' }, body: '{}' },
  { name: 'unknown charset', headers: { 'Content-Type': 'application/json; charset=klingon' }, body: '{}' },
  { name: 'unknown Content-Encoding', headers: { 'Content-Encoding': 'br2' }, body: '{}' },
  { name: 'corrupt gzip', headers: { 'Content-Encoding': 'gzip' }, body: 'this is not gzip' },
  { name: 'truncated gzip', headers: { 'Content-Encoding': 'gzip' }, body: gzipSync('{"name":"x"}').subarray(0, 12) },
  { name: 'gzip bomb (10 MB inflated)', headers: { 'Content-Encoding': 'gzip' }, body: gzipSync(Buffer.alloc(10_000_000, 0x20)) },
  { name: 'corrupt deflate', headers: { 'Content-Encoding': 'deflate' }, body: 'xx' },
  { name: 'cut-off JSON', headers: {}, body: '{"name": "x", "tar' },
  { name: 'over the size limit', headers: {}, body: JSON.stringify({ name: 'x'.repeat(300_000) }) },
  { name: 'not JSON at all', headers: {}, body: '\u0000\u0001\u0002' },
  { name: 'top-level prototype key', headers: {}, body: '{"__proto__":{"status":"paused"},"constructor":{"prototype":{"x":1}}}' },
  { name: 'form body', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'a=1&b=2' },
];

const HEADERS: { name: string; headers: Record<string, string> }[] = [
  { name: 'very long key', headers: { Authorization: `Bearer ${'A'.repeat(8_000)}` } },
  { name: 'key with SQL', headers: { Authorization: "Bearer sk_live_'OR'1'='1'--" } },
  { name: 'latin-1 key', headers: { Authorization: `Bearer sk_live_${'é'.repeat(32)}` } },
  { name: 'another scheme', headers: { Authorization: 'Basic Zm9vOmJhcg==' } },
  { name: 'bearer without a key', headers: { Authorization: 'Bearer' } },
  { name: 'very long request id', headers: { 'X-Request-Id': 'r'.repeat(5_000) } },
  { name: 'latin-1 request id', headers: { 'X-Request-Id': 'ÿé\u00a0' } },
];

/** Live reads whose HTML upstream must be a 502 (the issue's cases); the other live reads may refuse it otherwise. */
export const HTML_IS_502 = new Set(['getFullText', 'getCyberIncidents']);

/** What must never be in a body: a stack trace, SQL text, the database's own error. */
const LEAKS: [string, RegExp][] = [
  ['a stack trace', /\bat (?:async )?[\w$.<>[\]]+ \(|\.(?:ts|js|mjs|cjs):\d+:\d+/],
  ['SQL text', /\b(?:SELECT|INSERT|UPDATE|DELETE)\b[\s\S]{0,300}\b(?:FROM|INTO|SET|WHERE)\b/],
  ['a database error', /\b(?:Binder|Parser|Conversion|Catalog|Constraint|Invalid Input|Out of Range|Serialization|INTERNAL) Error\b|duckdb|read_parquet/i],
];

export interface Probe {
  label: string;
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  echo?: string;
  /** The statuses of 500 and above this probe may answer (the HTML upstream's 502). */
  allow5xx?: number[];
  expect?: number;
}

/** The leak a body shows, the hostile value the server may echo set aside. */
export function leakIn(body: string, echo?: string): string | null {
  let searched = body;
  if (echo) for (const form of [echo, JSON.stringify(echo).slice(1, -1)]) searched = searched.split(form).join('');
  return LEAKS.find(([, re]) => re.test(searched))?.[0] ?? null;
}

/** The probes of one operation (its parameters', its body's, around a well-formed call), and that call. */
async function probesOf(contract: ContractApp, method: string, path: string, op: Operation): Promise<{ hostile: Probe[]; wellFormed: Probe }> {
  const params = op.parameters ?? [];
  const pathValues: Record<string, string> = {};
  for (const prm of params.filter((x) => x.in === 'path')) pathValues[prm.name] = await contract.pathValue(op.operationId, path, prm);
  const good = contract.goodQuery(op.operationId, op);
  const validBody = contract.body(op.operationId);
  const body = validBody === undefined ? undefined : JSON.stringify(validBody);
  const probes: Probe[] = [];
  for (const prm of params) {
    for (const h of valuesFor(prm, path.endsWith('/export') ? VALUES_PER_EXPORT_PARAM : VALUES_PER_PARAM)) {
      const label = `${op.operationId} ${prm.in} ${prm.name} ← ${h.name}`;
      if (prm.in === 'path') {
        const url = path.replace(/\{(\w+)\}/g, (_, n) => (n === prm.name ? h.inPath! : encodeURIComponent(pathValues[n])));
        probes.push({ label, method, url: `${url}${query(good)}`, body, echo: h.echo });
      } else {
        const rest = query(Object.fromEntries(Object.entries(good).filter(([k]) => k !== prm.name)));
        probes.push({ label, method, url: `${fill(path, pathValues)}${rest ? `${rest}&` : '?'}${h.inQuery(prm.name)}`, body, echo: h.echo });
      }
    }
  }
  const url = `${fill(path, pathValues)}${query(good)}`;
  const members = Object.keys(op.requestBody?.content['application/json']?.schema.properties ?? {});
  for (const member of members) {
    for (const v of BODY_VALUES) {
      const json = JSON.stringify({ ...(validBody as object), [member]: HOLE }).replace(JSON.stringify(HOLE), v.json);
      probes.push({ label: `${op.operationId} body ${member} ← ${v.name}`, method, url, body: json, echo: v.echo });
    }
  }
  if (op.requestBody) {
    for (const r of RAW_BODIES) probes.push({ label: `${op.operationId} body ← ${r.name}`, method, url, headers: r.headers, body: r.body });
  }
  return { hostile: probes, wellFormed: { label: `${op.operationId} well-formed`, method, url, body } };
}

/**
 * Every operation's probes and the hostile headers (`hostile`), and each operation's well-formed call (`wellFormed`,
 * what the hostile answers are timed against).
 */
export async function buildProbes(contract: ContractApp): Promise<{ hostile: Probe[]; wellFormed: Probe[] }> {
  const hostile: Probe[] = [];
  const wellFormed: Probe[] = [];
  for (const { method, path, op } of operationsOf(contract.doc)) {
    const of = await probesOf(contract, method, path, op);
    hostile.push(...of.hostile);
    wellFormed.push(of.wellFormed);
  }
  // Headers, on a lake list and on a body operation.
  for (const h of HEADERS) {
    hostile.push({ label: `header ← ${h.name}`, method: 'get', url: '/v1/advisers?limit=1', headers: h.headers, echo: Object.values(h.headers)[0] });
    hostile.push({ label: `header ← ${h.name}`, method: 'post', url: '/v1/monitors', headers: h.headers, body: '{"name":"x"}' });
  }
  return { hostile, wellFormed };
}

/** One probe sent with the app's key: its status, body and time to the last byte. */
export async function sendProbe(contract: ContractApp, p: Probe): Promise<{ status: number; body: string; ms: number }> {
  const headers: Record<string, string> = { Authorization: `Bearer ${contract.app.key}`, ...p.headers };
  if (p.body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/json';
  const started = performance.now();
  const res = await fetch(`${contract.app.baseUrl}${p.url}`, { method: p.method.toUpperCase(), headers, body: p.body });
  const body = await res.text();
  return { status: res.status, body, ms: performance.now() - started };
}

/** `fn` over every probe, `CONCURRENCY` at a time (the machine has two cores: more would only queue). */
export async function eachProbe(probes: Probe[], fn: (p: Probe) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < probes.length) await fn(probes[next++]);
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}
