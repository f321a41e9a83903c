// Price quotes (spec "beyond the seed", [sdk]: seen in a third-party SDK, not in the official client):
//   GET /cluster/quote?instance_type=8xH100&num_nodes=2  -> { hourly_rate, instance_type, num_nodes }
//   GET /storage/quote?size_gb=500                       -> { hourly_rate, size_gb }
// from the engine's own price table: `--prices <file.json>` at start, POST /_engine/config
// { prices: {...} } at run time, and { quotes: false } to make both routes answer 404
// `{"detail": "Not Found"}` (as a service without them would), so the no-price path can be tested.
//
// The default table is illustrative, not TensorPool's price list. Its storage price is the one the
// engine's volumes are billed at (engine/volumeTypes.ts GB_HOUR_USD); a --prices file that changes it
// changes the quotes only, not the hourly_rate the volume list shows.

import { readFileSync } from 'node:fs';
import { detail, json, routeNotFound, type Reply } from './http';
import { unofferedType } from './offered';
// Types only: routes.ts imports this module, and a value import back would be a cycle.
import type { Route, UserCtx } from './routes';
import { issue, MAX_NUM_NODES, validationReply, type ValidationIssue } from './validate';
import { GB_HOUR_USD, MAX_VOLUME_GB } from './volumeTypes';

export interface PriceTable {
  /** Per GPU-hour by model (`H100`), per vCPU-hour for `CPU`. */
  unitHour: Record<string, number>;
  /** Per node-hour for exact instance types (`8xH100`); wins over `unitHour`. */
  instanceHour?: Record<string, number>;
  /** Per GB-hour of storage volume. */
  storageGbHour: number;
}

const DEFAULT_PRICES: PriceTable = {
  unitHour: { H100: 2.49, H200: 3.29, B200: 4.99, B300: 6.49, L40S: 1.19, CPU: 0.05 },
  storageGbHour: GB_HOUR_USD,
};

const price = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

function priceMap(v: unknown, name: string): Record<string, number> | string {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return `${name} must be an object of prices`;
  for (const [k, p] of Object.entries(v)) if (!price(p)) return `${name}.${k} must be a number >= 0`;
  return { ...(v as Record<string, number>) };
}

/** A price table from JSON; a string says what is wrong. Unknown keys are refused (typos). */
export function parsePrices(v: unknown): PriceTable | string {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'prices must be an object';
  const { unitHour, instanceHour, storageGbHour, ...extra } = v as Record<string, unknown>;
  if (Object.keys(extra).length) return `prices: unknown field ${Object.keys(extra)[0]}`;
  const units = priceMap(unitHour ?? {}, 'unitHour');
  if (typeof units === 'string') return units;
  const table: PriceTable = { unitHour: units, storageGbHour: DEFAULT_PRICES.storageGbHour };
  if (instanceHour !== undefined) {
    const exact = priceMap(instanceHour, 'instanceHour');
    if (typeof exact === 'string') return exact;
    table.instanceHour = exact;
  }
  if (storageGbHour !== undefined) {
    if (!price(storageGbHour)) return 'storageGbHour must be a number >= 0';
    table.storageGbHour = storageGbHour;
  }
  return table;
}

/** `--prices <file.json>`: the table, or an Error saying why not. */
export function readPricesFile(path: string): PriceTable {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read prices from ${path}: ${err instanceof Error ? err.message : String(err)}`, {
      cause: err,
    });
  }
  const table = parsePrices(raw);
  if (typeof table === 'string') throw new Error(`${path}: ${table}`);
  return table;
}

/** Hourly price of one node of `instanceType`, or undefined when the table has none. */
function nodeHourly(table: PriceTable, instanceType: string): number | undefined {
  const exact = table.instanceHour?.[instanceType];
  if (exact !== undefined) return exact;
  const m = /^([1-9][0-9]*)x([A-Za-z0-9]+)$/.exec(instanceType);
  const unit = m ? table.unitHour[m[2]] : undefined;
  return unit === undefined ? undefined : Number(m![1]) * unit;
}

const round4 = (n: number) => Math.round(n * 10_000) / 10_000;

/** A whole-number query parameter in [min, max] (pydantic's int parsing and bounds), or its 422 issue. */
function intParam(
  ctx: UserCtx,
  name: string,
  min: number,
  max: number,
  fallback?: number,
): number | ValidationIssue {
  const raw = ctx.query.get(name);
  if (raw === null) {
    if (fallback !== undefined) return fallback;
    return issue('missing', ['query', name], 'Field required', null);
  }
  if (!/^\s*[+-]?\d+\s*$/.test(raw))
    return issue(
      'int_parsing',
      ['query', name],
      'Input should be a valid integer, unable to parse string as an integer',
      raw,
    );
  const n = Number(raw);
  if (n < min)
    return issue(
      'greater_than_equal',
      ['query', name],
      `Input should be greater than or equal to ${min}`,
      raw,
      { ge: min },
    );
  if (n > max)
    return issue('less_than_equal', ['query', name], `Input should be less than or equal to ${max}`, raw, {
      le: max,
    });
  return n;
}

/** The table in force, or null when quotes are switched off. */
function tableOf(ctx: UserCtx): PriceTable | null {
  const c = ctx.state.config;
  return c.quotes === false ? null : (c.prices ?? DEFAULT_PRICES);
}

function clusterQuote(ctx: UserCtx): Reply {
  const table = tableOf(ctx);
  if (!table) return routeNotFound();
  const issues: ValidationIssue[] = [];
  const instanceType = ctx.query.get('instance_type');
  if (instanceType === null || instanceType.trim() === '')
    issues.push(issue('missing', ['query', 'instance_type'], 'Field required', instanceType));
  const nodes = intParam(ctx, 'num_nodes', 1, MAX_NUM_NODES, 1);
  if (typeof nodes !== 'number') issues.push(nodes);
  if (issues.length) return validationReply(issues);
  const unoffered = unofferedType(instanceType!, ctx.state.config.instanceTypes);
  if (unoffered) {
    const body = unoffered.body as { detail: ValidationIssue[] };
    return validationReply(body.detail.map((i) => ({ ...i, loc: ['query', 'instance_type'] })));
  }
  const perNode = nodeHourly(table, instanceType!);
  if (perNode === undefined) return detail(404, `No price is available for instance type ${instanceType}`);
  return json(200, {
    hourly_rate: round4(perNode * (nodes as number)),
    instance_type: instanceType,
    num_nodes: nodes,
  });
}

function storageQuote(ctx: UserCtx): Reply {
  const table = tableOf(ctx);
  if (!table) return routeNotFound();
  const size = intParam(ctx, 'size_gb', 1, MAX_VOLUME_GB);
  if (typeof size !== 'number') return validationReply([size]);
  return json(200, { hourly_rate: round4(size * table.storageGbHour), size_gb: size });
}

/** The two routes (a function, like volumeRoutes(): routes.ts calls it while it builds ROUTES). */
export function quoteRoutes(): Route[] {
  return [
    { method: 'GET', pattern: '/cluster/quote', auth: true, handle: clusterQuote },
    { method: 'GET', pattern: '/storage/quote', auth: true, handle: storageQuote },
  ];
}
